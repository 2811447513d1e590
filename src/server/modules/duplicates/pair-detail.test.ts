// One pair opened for review through the real API (issue 24 item 3): both whole records side by side (demographics,
// portal sign-in, every clinical list through the records presenter), a VIEW audit row per patient, and only holders
// of patients.merge see anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PairDetail } from '../../../contracts/duplicates';
import { ROLE_IDS } from '../../../contracts/constants';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { activatePatient, insertClinicalRows } from '../../test/portal-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let officer: string;
let doctor: string;
let receptionist: string;
let older: TestPatient;
let newer: TestPatient;
let pairId: number;

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const auditRows = () =>
  queryRows<{
    action: string;
    resourceType: string;
    patientId: number;
    newValues: { view: string; reason: string; pairId: number; returned: Record<string, number> };
  }>(
    t.db,
    sql`SELECT action, resource_type AS "resourceType", patient_id AS "patientId", new_values AS "newValues"
          FROM audit_logs WHERE new_values->>'view' = 'DUPLICATE_REVIEW' ORDER BY id`,
  );

beforeAll(async () => {
  t = await createTestApp();
  officer = (await signInAs(t, ROLE_IDS.healthInformationOfficer)).cookie;
  doctor = (await signInAs(t, ROLE_IDS.doctor)).cookie;
  receptionist = (await signInAs(t, ROLE_IDS.receptionist)).cookie;
  older = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
  newer = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondka', dateOfBirth: '1984-03-09' });
  await insertClinicalRows(t.db, older.id, { diagnoses: 2, appointments: 0, allergies: 1, medications: 0, vaccines: 0 }, 'OLD');
  await insertClinicalRows(t.db, newer.id, { diagnoses: 0, appointments: 1, allergies: 0, medications: 2, vaccines: 1 }, 'NEW');
  // A diagnosis entered in error is not part of the record, and not shown.
  await t.db.execute(sql`UPDATE diagnoses SET entered_in_error_at = now() WHERE condition = 'Condition OLD-1'`);
  await activatePatient(t.db, { id: newer.id, ncNumber: newer.idNumber, dateOfBirth: newer.dateOfBirth });
  pairId = (await queryOne<{ id: number }>(
    t.db,
    sql`INSERT INTO duplicate_pairs (patient_a, patient_b, score, band, reasons, found_at, scored_at)
        VALUES (${older.id}, ${newer.id}, 30.5, 'very-likely', ${JSON.stringify([{ field: 'lastName', agreement: 'typo', weight: 6 }])}::jsonb, now(), now())
        RETURNING id`,
  ))!.id;
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/duplicates/{id}', () => {
  it('answers the pair with both whole records: demographics, portal sign-in and every clinical list', async () => {
    const res = await get(officer, `/api/duplicates/${pairId}`);
    expect(res.statusCode).toBe(200);
    const pair = res.json<PairDetail>();
    expect(pair).toMatchObject({ id: pairId, band: 'very-likely', score: 30.5, status: 'open' });
    expect(pair.reasons).toEqual([{ field: 'lastName', agreement: 'typo', weight: 6 }]);
    const [a, b] = pair.records;
    expect(a.patient).toMatchObject({
      id: older.id,
      lastName: 'Nghipondoka',
      idNumber: older.idNumber,
      contactNumber: '+264 81 555 0101',
      nextOfKin: 'Tuyeni Hamutenya',
    });
    expect(b.patient).toMatchObject({ id: newer.id, lastName: 'Nghipondka' });
    expect([a.portal, b.portal]).toEqual([false, true]);
    expect(a.diagnoses.map((d) => d.condition)).toEqual(['Condition OLD-0']);
    expect(a.allergies.map((x) => x.allergen)).toEqual(['Allergen OLD-0']);
    expect(a.medications).toEqual([]);
    expect(b.medications.map((m) => m.name).sort()).toEqual(['Medicine NEW-0', 'Medicine NEW-1']);
    expect(b.vaccines).toHaveLength(1);
    expect(b.appointments).toHaveLength(1);
    expect([a.clinicalRows, b.clinicalRows]).toEqual([2, 4]);
    expect(Date.parse(a.createdAt)).toBeLessThanOrEqual(Date.parse(b.createdAt));
  });

  it('is audited as a VIEW of each patient, with the reason "duplicate review" and the rows shown', async () => {
    const before = (await auditRows()).length;
    await get(officer, `/api/duplicates/${pairId}`);
    const rows = (await auditRows()).slice(before);
    expect(rows.map((r) => [r.action, r.resourceType, r.patientId])).toEqual([
      ['VIEW', 'PATIENT', older.id],
      ['VIEW', 'PATIENT', newer.id],
    ]);
    expect(rows[0]!.newValues).toMatchObject({ reason: 'duplicate review', pairId, returned: { diagnoses: 1, allergies: 1 } });
    expect(rows[1]!.newValues.returned).toMatchObject({ medications: 2, vaccines: 1 });
  });

  it('refuses a clinician and a receptionist (no patients.merge) with 403, and records no view', async () => {
    const before = (await auditRows()).length;
    for (const cookie of [doctor, receptionist]) {
      const res = await get(cookie, `/api/duplicates/${pairId}`);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('Nghipondoka');
    }
    expect(await auditRows()).toHaveLength(before);
  });

  it('answers 404 for an unknown pair and 400 for an id that is not one', async () => {
    const unknown = await get(officer, '/api/duplicates/99999999');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'DUPLICATE_PAIR_NOT_FOUND' });
    for (const id of ['0', '-1', 'abc', '1e3', '99999999999', '1%00']) {
      expect((await get(officer, `/api/duplicates/${id}`)).statusCode, id).toBe(400);
    }
  });
});
