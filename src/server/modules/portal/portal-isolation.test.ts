// Property: over many seeded patients with random clinical rows and random clinician accesses, every portal
// endpoint gives each signed-in patient exactly their own data and nothing of anyone else's (DESIGN.md §4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import {
  insertClinicalRows,
  insertPatient,
  recordClinicianAccess,
  seededRandom,
  signInPatient,
  type ClinicalCounts,
  type SeededPatient,
} from '../../test/portal-fixtures';
import { queryRows } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

const PATIENTS = 30;
const SEED = Number(process.env.PORTAL_PROPERTY_SEED ?? 20260302);
const random = seededRandom(SEED);
const int = (max: number): number => Math.floor(random() * (max + 1));

interface Seeded extends SeededPatient {
  counts: ClinicalCounts;
  reasons: string[];
  cookie: string;
}

let t: TestApp;
const seeded: Seeded[] = [];

beforeAll(async () => {
  t = await createTestApp();
  for (let i = 0; i < PATIENTS; i++) {
    const year = 1940 + int(80);
    const p = await insertPatient(t.db, {
      firstName: `First${i}`,
      lastName: `Last${i}`,
      // Several patients share a date of birth: it must never be the key.
      dateOfBirth: `${year - (year % 4)}-0${1 + int(8)}-1${int(9)}`,
      contactNumber: `+264 81 ${String(100000 + i)}`,
    });
    const counts = { diagnoses: int(4), appointments: int(4), allergies: int(3), medications: int(4), vaccines: int(3) };
    await insertClinicalRows(t.db, p.id, counts, `T${p.id}X`);
    seeded.push({ ...p, counts, reasons: [], cookie: '' });
  }
  // Random clinician accesses, spread over the patients.
  for (let k = 0; k < 60; k++) {
    const target = seeded[int(PATIENTS - 1)]!;
    const reason = `Reason R${k}X for T${target.id}X`;
    await recordClinicianAccess(
      t.db,
      { userId: `clin-${k % 5}`, userName: `Clinician ${k % 5}`, facility: 'Rundu State Hospital' },
      target.id,
      {
        consent: false,
        reason,
      },
    );
    target.reasons.push(reason);
  }
  for (const [i, p] of seeded.entries()) p.cookie = await signInPatient(t, p, `10.9.${Math.floor(i / 200)}.${i % 200}`);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

/** Every string in a JSON value. */
const stringsOf = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.flatMap(stringsOf)
      : value && typeof value === 'object'
        ? Object.values(value).flatMap(stringsOf)
        : [];

/** Marks that only this patient's data carries: the tag in clinical texts, the NC number, the contact number. */
const marksOf = (p: Seeded): string[] => [`T${p.id}X`, p.ncNumber, `First${seeded.indexOf(p)}`];

function leaksFrom(me: Seeded, body: unknown): string[] {
  const text = JSON.stringify(body);
  return seeded.filter((o) => o !== me).flatMap((o) => marksOf(o).filter((m) => new RegExp(`${m}(?!\\d)`).test(text)));
}

describe(`portal isolation over ${PATIENTS} patients (seed ${SEED})`, () => {
  it('GET /api/patient-portal/me returns exactly the signed-in patient and their rows', async () => {
    for (const p of seeded) {
      const res = await t.app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie: p.cookie } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.patient.id).toBe(p.id);
      expect(body.patient.ncNumber).toBe(p.ncNumber);
      const lists = body.medicalRecords as Record<keyof ClinicalCounts, unknown[]>;
      for (const key of Object.keys(p.counts) as (keyof ClinicalCounts)[]) {
        expect(lists[key], `${key} of patient ${p.id}`).toHaveLength(p.counts[key]);
      }
      // Every row's ids are this patient's rows in the database, and no other patient's mark appears anywhere.
      for (const [table, list] of Object.entries(lists)) {
        const ids = list.map((r) => (r as { id: number }).id);
        if (ids.length === 0) continue;
        const owners = await queryRows<{ patient_id: number }>(
          t.db,
          sql`SELECT DISTINCT patient_id FROM ${sql.identifier(table)} WHERE id IN ${sql`(${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`}`,
        );
        expect(owners, `${table} of patient ${p.id}`).toEqual([{ patient_id: p.id }]);
      }
      expect(leaksFrom(p, body)).toEqual([]);
      expect(stringsOf(lists).every((s) => !/T\d+X/.test(s) || s.includes(`T${p.id}X`))).toBe(true);
    }
  });

  it('GET /api/patient-portal/access-log returns exactly the accesses to the signed-in patient', async () => {
    for (const p of seeded) {
      const res = await t.app.inject({ method: 'GET', url: '/api/patient-portal/access-log?pageSize=100', headers: { cookie: p.cookie } });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      // The accesses, the activation code the desk issued for the patient's first sign-in (decision 016) and its use
      // (decision 031).
      expect(body.total).toBe(p.reasons.length + 2);
      const items = body.items as { kind: string; reason: string }[];
      expect(items.filter((i) => i.kind === 'ACTIVATION_CODE')).toHaveLength(1);
      expect(items.filter((i) => i.kind === 'PORTAL_ACTIVATED')).toHaveLength(1);
      expect(
        items
          .filter((i) => i.kind === 'BREAK_GLASS')
          .map((i) => i.reason)
          .sort(),
      ).toEqual([...p.reasons].sort());
      expect(leaksFrom(p, body)).toEqual([]);
    }
  });

  it('every patient reading the same URLs with someone else’s id in the query still gets only their own data', async () => {
    for (const p of seeded) {
      const other = seeded[(seeded.indexOf(p) + 1) % PATIENTS]!;
      for (const url of [
        `/api/patient-portal/me?patientId=${other.id}&id=${other.id}`,
        `/api/patient-portal/access-log?patientId=${other.id}`,
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { cookie: p.cookie } });
        expect(res.statusCode).toBe(200);
        expect(leaksFrom(p, res.json())).toEqual([]);
      }
    }
  });

  it('the audit rows of those reads name each patient only for their own record', async () => {
    const rows = await queryRows<{ user_id: string; patient_id: number }>(
      t.db,
      sql`SELECT user_id, patient_id FROM audit_logs WHERE user_id LIKE 'patient:%'`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(PATIENTS * 4);
    for (const r of rows) expect(r.user_id).toBe(`patient:${r.patient_id}`);
  });
});
