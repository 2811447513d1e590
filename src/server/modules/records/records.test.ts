// The clinical record API (SPEC §7): add, read and delete of each list and of vital signs, with a grant; refused
// without one; every read, add and delete audited in the same transaction.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getTableName } from 'drizzle-orm';
import { kindContract, RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import { SERVER_KINDS } from './kinds';
import { verifyAuditChain } from '../../audit/audit-verify';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs, type StaffUser } from '../../test/staff';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let doctor: { cookie: string; user: StaffUser };
let patient: TestPatient;
let ungranted: TestPatient;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await signInAs(t, 3);
  patient = await createPatient(t.db);
  ungranted = await createPatient(t.db, { lastName: 'Kambonde' });
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/patients/${patient.id}/access`,
    headers: { cookie: doctor.cookie },
    payload: { consent: true },
  });
  expect(res.statusCode).toBe(201);
});
afterAll(async () => {
  await t?.close();
});

const api = (cookie: string) => ({
  list: (kind: RecordKind, patientId: number) =>
    t.app.inject({ method: 'GET', url: `/api/patients/${patientId}/${kind}`, headers: { cookie } }),
  add: (kind: RecordKind, patientId: number, payload: unknown) =>
    t.app.inject({ method: 'POST', url: `/api/patients/${patientId}/${kind}`, headers: { cookie }, payload: payload as object }),
  remove: (kind: RecordKind, id: number) => t.app.inject({ method: 'DELETE', url: `/api/${kind}/${id}`, headers: { cookie } }),
});
const lastAudit = () =>
  queryOne<{
    user_id: string;
    action: string;
    resource_type: string;
    resource_id: string | null;
    patient_id: number;
    old_values: unknown;
    new_values: unknown;
  }>(
    t.db,
    sql`SELECT user_id, action, resource_type, resource_id, patient_id, old_values, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
  );
const auditCount = async (): Promise<number> => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n;
const rowCount = async (kind: RecordKind): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(getTableName(SERVER_KINDS[kind].table))}`))!.n;

/** What the stored row holds for a sample body: '' optional values become null; vital signs gain who and when. */
function expectedRow(kind: RecordKind): Record<string, unknown> {
  const body = Object.fromEntries(Object.entries(SAMPLE_INPUTS[kind]).map(([k, v]) => [k, v === '' ? null : v]));
  if (kind === 'vitals') return { ...body, recordedBy: 'Test Role3' };
  if (kind === 'lab-results')
    return { ...body, enteredBy: 'Test Role3', abnormalFlag: null, code: null, codeSystem: null, codeDisplay: null };
  if (kind === 'vaccines') return { batchNumber: null, code: null, codeSystem: null, codeDisplay: null, ...body };
  return kindContract(kind).coded ? { code: null, codeSystem: null, codeDisplay: null, ...body } : body;
}

describe.each(RECORD_KINDS)('%s', (kind) => {
  let createdId: number;
  let created: Record<string, unknown>;

  it('adds an item: 201 with the stored row as version 1, audited as CREATE (the chain names the event, not the row)', async () => {
    const res = await api(doctor.cookie).add(kind, patient.id, SAMPLE_INPUTS[kind]);
    expect(res.statusCode).toBe(201);
    const row = res.json();
    expect(row).toMatchObject({
      ...expectedRow(kind),
      patientId: patient.id,
      id: expect.any(Number),
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      version: 1,
      updatedBy: 'Test Role3',
      enteredInErrorAt: null,
    });
    expect(res.headers.etag).toBe('"1"');
    createdId = row.id;
    created = row;
    const audit = await lastAudit();
    expect(audit).toMatchObject({
      user_id: doctor.user.id,
      action: 'CREATE',
      resource_type: kindContract(kind).resourceType,
      resource_id: String(createdId),
      patient_id: patient.id,
      old_values: null,
    });
    expect(audit!.new_values).toEqual({ version: 1, changed: [] });
  });

  it('reads the list with the new item (the same shape as the add returned), audited as VIEW for that patient', async () => {
    const res = await api(doctor.cookie).list(kind, patient.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().find((r: { id: number }) => r.id === createdId)).toEqual(created);
    expect(await lastAudit()).toMatchObject({
      action: 'VIEW',
      resource_type: kindContract(kind).resourceType,
      patient_id: patient.id,
      new_values: { list: kind, returned: res.json().length },
    });
  });

  it('refuses every call for a patient without a grant (403) and changes nothing', async () => {
    const before = [await rowCount(kind), await auditCount()];
    for (const res of [
      await api(doctor.cookie).list(kind, ungranted.id),
      await api(doctor.cookie).add(kind, ungranted.id, SAMPLE_INPUTS[kind]),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'Access to this record has not been confirmed', code: 'ACCESS_GRANT_REQUIRED' });
    }
    expect([await rowCount(kind), await auditCount()]).toEqual(before);
  });

  it("refuses to delete another patient's item without a grant for that patient, and keeps it", async () => {
    const other = await signInAs(t, 4); // a nurse with no grant for this patient
    const before = [await rowCount(kind), await auditCount()];
    const res = await api(other.cookie).remove(kind, createdId);
    expect(res.statusCode).toBe(403);
    expect([await rowCount(kind), await auditCount()]).toEqual(before);
  });

  it('marks the item entered in error: 204, kept as its next version, gone from the list, audited as DELETE', async () => {
    const rows = await rowCount(kind);
    const res = await api(doctor.cookie).remove(kind, createdId);
    expect(res.statusCode).toBe(204);
    expect(await rowCount(kind)).toBe(rows);
    const audit = await lastAudit();
    expect(audit).toMatchObject({
      action: 'DELETE',
      resource_type: kindContract(kind).resourceType,
      resource_id: String(createdId),
      patient_id: patient.id,
    });
    expect(audit!.new_values).toEqual({ version: 2, changed: ['enteredInError'] });
    const list = await api(doctor.cookie).list(kind, patient.id);
    expect(list.json().map((r: { id: number }) => r.id)).not.toContain(createdId);
  });

  it('answers 404 for an unknown id, 400 for a malformed one', async () => {
    const res = await api(doctor.cookie).remove(kind, createdId);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('RECORD_ENTRY_NOT_FOUND');
    expect((await api(doctor.cookie).remove(kind, 0)).statusCode).toBe(400);
  });

  it('answers 404 for an unknown patient', async () => {
    expect((await api(doctor.cookie).list(kind, 987_654)).statusCode).toBe(404);
  });
});

describe('list order and shapes', () => {
  it('lists newest first', async () => {
    const c = api(doctor.cookie);
    await c.add('diagnoses', patient.id, { ...SAMPLE_INPUTS.diagnoses, condition: 'Asthma', diagnosedDate: '2010-01-05' });
    await c.add('diagnoses', patient.id, { ...SAMPLE_INPUTS.diagnoses, condition: 'Hypertension', diagnosedDate: '2022-08-30' });
    const names = (await c.list('diagnoses', patient.id)).json().map((d: { condition: string }) => d.condition);
    expect(names.indexOf('Hypertension')).toBeLessThan(names.indexOf('Asthma'));
  });

  it('stores vital signs with one decimal, dated by the server clock unless recordedAt is given', async () => {
    const res = await api(doctor.cookie).add('vitals', patient.id, { temperature: 38.25, weight: 80 });
    expect(res.json()).toMatchObject({ systolic: null, diastolic: null, temperature: 38.3, weight: 80 });
    expect(Date.parse(res.json().recordedAt)).toBeGreaterThan(Date.now() - 60_000);
    const dated = await api(doctor.cookie).add('vitals', patient.id, {
      systolic: 150,
      diastolic: 95,
      recordedAt: '2025-01-02T10:15:00+02:00',
    });
    expect(dated.json().recordedAt).toBe('2025-01-02T08:15:00.000Z');
  });
});

describe('GET /api/patients/{id}/record-summary', () => {
  it('returns demographics and every list of the record, with one VIEW PATIENT audit row', async () => {
    const before = await auditCount();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/patients/${patient.id}/record-summary`,
      headers: { cookie: doctor.cookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual([...RECORD_KINDS, 'patient'].sort());
    expect(body.patient).toMatchObject({ id: patient.id, idNumber: patient.idNumber, lastName: 'Hamutenya' });
    expect(body.diagnoses.length).toBeGreaterThanOrEqual(2);
    expect(body.vitals.length).toBe(2);
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({
      action: 'VIEW',
      resource_type: 'PATIENT',
      patient_id: patient.id,
      new_values: { view: 'RECORD', returned: { diagnoses: body.diagnoses.length, vitals: 2 } },
    });
  });

  it('answers 403 without a grant and 404 for an unknown patient, with no audit row and nothing of the record', async () => {
    const before = await auditCount();
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/patients/${ungranted.id}/record-summary`,
      headers: { cookie: doctor.cookie },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(ungranted.idNumber);
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/patients/2000000000/record-summary',
      headers: { cookie: doctor.cookie },
    });
    expect(unknown.statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it('gives the same demographics as GET /api/patients/{id}', async () => {
    const summary = await t.app.inject({
      method: 'GET',
      url: `/api/patients/${patient.id}/record-summary`,
      headers: { cookie: doctor.cookie },
    });
    const details = await t.app.inject({ method: 'GET', url: `/api/patients/${patient.id}`, headers: { cookie: doctor.cookie } });
    expect(details.statusCode).toBe(200);
    expect(summary.json().patient).toEqual(details.json());
  });

  it('leaves an intact audit hash chain after all of the above', async () => {
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });
});
