// The readers of audit values through the real app (decision 042): the audit log, the DATA_MODIFICATION report and FHIR
// AuditEvents show a row's payload opened and presented (presentPayload: internal columns dropped, a sealed clinical row
// withheld), the chained event details beside it, and `{ shredded: true }` once the payload is shredded, never failing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { shredAuditPayload } from '../../audit/audit-shred';
import { verifyAuditChain } from '../../audit/audit-verify';
import { writeAudit } from '../../audit/audit-writer';
import { auditEntry, query } from '../../test/audit-fixtures';
import { expectValidFhir } from '../../test/fhir-validator';
import { createPatient } from '../../test/patient-fixtures';
import { insertClinicalRows } from '../../test/portal-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let auditor: string;
let patientId: number;
let medicationId: number;
let withPayload: number;
let legacy: number;
const DOSE = 'SECRET-DOSE 250 mg';

type Entry = { id: number; oldValues: unknown; newValues: unknown; eventValues?: unknown };

beforeAll(async () => {
  t = await createTestApp();
  auditor = (await signInAs(t, ROLE_IDS.auditor)).cookie;
  patientId = (await createPatient(t.db)).id;
  await insertClinicalRows(t.db, patientId, { diagnoses: 0, appointments: 0, allergies: 0, medications: 1, vaccines: 0 });
  medicationId = (await query<{ id: number }>(t.db, sql`SELECT id FROM medications WHERE patient_id = ${patientId}`))[0]!.id;
  // The stored row as a service holds it: with the columns no reader may see.
  const stored = { id: medicationId, patientId, name: 'Amoxicillin', dosage: '500 mg', sealed: false, changeXid: '991' };
  const change = {
    action: 'UPDATE' as const,
    resourceType: 'MEDICATION' as const,
    resourceId: medicationId,
    patientId,
  };
  withPayload = await writeAudit(
    t.db,
    auditEntry({
      ...change,
      oldValues: { version: 1 },
      newValues: { changed: ['dosage'], version: 2 },
      payload: { oldValues: stored, newValues: { ...stored, dosage: DOSE } },
    }),
  );
  // A row written before payloads existed: the clinical row in the chain itself.
  legacy = await writeAudit(t.db, auditEntry({ ...change, oldValues: stored, newValues: { ...stored, dosage: '750 mg' } }));
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: auditor } });

async function auditLog(): Promise<Map<number, Entry>> {
  const res = await get(`/api/audit-logs?patientId=${patientId}&resourceType=MEDICATION`);
  expect(res.statusCode).toBe(200);
  return new Map((res.json() as Entry[]).map((e) => [e.id, e]));
}

async function modificationReport(): Promise<Map<number, Entry>> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/compliance-reports/generate',
    headers: { cookie: auditor },
    payload: { reportType: 'DATA_MODIFICATION', title: 'Changes', dateFrom: '2020-01-01', dateTo: '2099-12-31' },
  });
  expect(res.statusCode).toBe(201);
  const data = JSON.parse((res.json() as { reportData: string }).reportData) as { entries: { rows: Entry[] } };
  return new Map(data.entries.rows.map((e) => [e.id, e]));
}

async function auditEventDetails(): Promise<Map<number, Record<string, unknown>>> {
  const res = await get(`/fhir/R4/AuditEvent?patient=${patientId}`);
  expect(res.statusCode).toBe(200);
  const bundle = expectValidFhir(
    res.json() as { entry: { resource: { id: string; entity: { detail?: { type: string; valueString: string }[] }[] } }[] },
  );
  return new Map(
    bundle.entry.map(({ resource }) => [
      Number(resource.id),
      Object.fromEntries(resource.entity.flatMap((e) => e.detail ?? []).map((d) => [d.type, JSON.parse(d.valueString) as unknown])),
    ]),
  );
}

describe('a row with a payload', () => {
  it('shows the opened payload in the audit log, without internal columns, and the chained event details beside it', async () => {
    const entry = (await auditLog()).get(withPayload)!;
    expect(entry.newValues).toEqual({ id: medicationId, patientId, name: 'Amoxicillin', dosage: DOSE });
    expect(entry.oldValues).toEqual({ id: medicationId, patientId, name: 'Amoxicillin', dosage: '500 mg' });
    expect(entry.eventValues).toEqual({ oldValues: { version: 1 }, newValues: { changed: ['dosage'], version: 2 } });
    // A row without a payload shows its chained values, through the same presenter.
    expect((await auditLog()).get(legacy)).toMatchObject({ newValues: { dosage: '750 mg' } });
    expect((await auditLog()).get(legacy)!.newValues).not.toHaveProperty('changeXid');
  });

  it('shows it in the DATA_MODIFICATION report and in FHIR AuditEvents', async () => {
    expect((await modificationReport()).get(withPayload)).toMatchObject({ newValues: { dosage: DOSE }, oldValues: { dosage: '500 mg' } });
    expect((await auditEventDetails()).get(withPayload)).toEqual({
      oldValues: { id: medicationId, patientId, name: 'Amoxicillin', dosage: '500 mg' },
      newValues: { id: medicationId, patientId, name: 'Amoxicillin', dosage: DOSE },
    });
  });

  it('withholds the values of a sealed clinical row, payload or not', async () => {
    await t.db.execute(sql`UPDATE medications SET sealed = true WHERE id = ${medicationId}`);
    try {
      const log = await auditLog();
      for (const id of [withPayload, legacy])
        expect(log.get(id)).toMatchObject({ oldValues: { withheld: true }, newValues: { withheld: true } });
      expect((await modificationReport()).get(withPayload)).toMatchObject({ newValues: { withheld: true } });
      expect((await auditEventDetails()).get(withPayload)).toEqual({ oldValues: { withheld: true }, newValues: { withheld: true } });
    } finally {
      await t.db.execute(sql`UPDATE medications SET sealed = false WHERE id = ${medicationId}`);
    }
  });
});

describe('a shredded payload', () => {
  beforeAll(async () => {
    const by = { userId: 'dpo-1', userName: 'Data Protection Officer', facility: null };
    expect(await shredAuditPayload(t.db, withPayload, { by, reason: 'erasure request' })).toBe('SHREDDED');
  });

  it('shows as shredded in the audit log, the report and FHIR, and every read still succeeds', async () => {
    const shredded = { shredded: true };
    expect((await auditLog()).get(withPayload)).toMatchObject({ oldValues: shredded, newValues: shredded, eventValues: expect.anything() });
    expect((await modificationReport()).get(withPayload)).toMatchObject({ oldValues: shredded, newValues: shredded });
    expect((await auditEventDetails()).get(withPayload)).toEqual({ oldValues: shredded, newValues: shredded });
    const [{ n }] = (await query<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_payloads WHERE ciphertext IS NOT NULL`)) as [
      { n: number },
    ];
    expect(n).toBe(0);
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true, payloads: { stored: 1, shredded: 1 } });
  });
});
