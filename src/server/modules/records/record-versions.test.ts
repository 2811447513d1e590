// Versioned clinical rows through the real API (issue 23 items 1-3, decision 041), for every kind: edits that name
// their version, stale and missing versions, entered in error with and without a reason, each row's history,
// idempotent adds, and the delta read with its grant check and cursors. Every refusal changes nothing.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTableName, sql } from 'drizzle-orm';
import { RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import { SERVER_KINDS } from './kinds';
import { verifyAuditChain } from '../../audit/audit-verify';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { ATC_SYSTEM } from '../../../contracts/code-systems';
import { signInAs } from '../../test/staff';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let api: ReturnType<typeof recordApi>;
let doctorCookie: string;
let other: ReturnType<typeof recordApi>;
let patient: TestPatient;
let ungranted: TestPatient;

beforeAll(async () => {
  t = await createTestApp();
  const doctor = await signInAs(t, 3);
  api = recordApi(t, doctor.cookie);
  doctorCookie = doctor.cookie;
  patient = await createPatient(t.db);
  ungranted = await createPatient(t.db, { lastName: 'Kambonde' });
  await confirmAccess(t, doctor.cookie, patient.id);
  other = recordApi(t, (await signInAs(t, 4)).cookie); // a nurse with no grant for either patient
});
afterAll(async () => {
  await t?.close();
});

const rowCount = async (kind: RecordKind): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(getTableName(SERVER_KINDS[kind].table))}`))!.n;
const state = async (kind: RecordKind) => [await rowCount(kind), await auditCount(t)];

/** One field each kind can change to a valid other value, and the value. */
const EDITS: Record<RecordKind, [string, unknown]> = {
  diagnoses: ['description', 'HbA1c 7.2% after three months'],
  appointments: ['findings', 'Blood glucose now in range'],
  allergies: ['reaction', 'Hives, swelling of the lips'],
  medications: ['dosage', '1000mg daily'],
  vaccines: ['facility', 'Okuryangava Clinic'],
  vitals: ['weight', 81.5],
  'lab-results': ['facility', 'Oshakati Intermediate Hospital Laboratory'],
};

describe.each(RECORD_KINDS)('%s', (kind) => {
  const [field, value] = EDITS[kind];
  let id: number;
  let v1: Record<string, unknown>;

  it('edits with If-Match: the next version, ETag, audited as UPDATE naming the changed field', async () => {
    v1 = (await api.add(kind, patient.id, SAMPLE_INPUTS[kind])).json();
    id = v1.id as number;
    const res = await api.edit(kind, id, { [field]: value }, [], 1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers.etag).toBe('"2"');
    expect(res.json()).toMatchObject({ id, uuid: v1.uuid, version: 2, [field]: value, updatedBy: 'Test Role3' });
    const audit = await queryOne<{ action: string; new_values: unknown }>(
      t.db,
      sql`SELECT action, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ action: 'UPDATE', new_values: { version: 2, changed: [field] } });
  });

  it('refuses a stale version (409 with the stored row and what changed) and a missing one (428), changing nothing', async () => {
    const before = await state(kind);
    const stale = await api.edit(kind, id, { [field]: SAMPLE_INPUTS[kind][field] ?? null }, [], 1);
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'VERSION_CONFLICT', current: { id, version: 2 }, changed: [field] });
    const missing = await api.edit(kind, id, { [field]: value }, [], null);
    expect(missing.statusCode).toBe(428);
    expect(missing.json().code).toBe('VERSION_REQUIRED');
    expect(await state(kind)).toEqual(before);
    expect((await api.history(kind, id)).json()).toHaveLength(2);
  });

  it("refuses an edit of another patient's row without a grant for that patient (403), changing nothing", async () => {
    const before = await state(kind);
    const res = await other.edit(kind, id, { [field]: value }, [], 2);
    expect(res.statusCode).toBe(403);
    expect(await state(kind)).toEqual(before);
  });

  it('shows the history, oldest first: created, edited, with who, when and what changed', async () => {
    const res = await api.history(kind, id);
    expect(res.statusCode).toBe(200);
    const history = res.json();
    expect(history.map((h: { version: number; action: string; changed: string[] }) => [h.version, h.action, h.changed])).toEqual([
      [1, 'created', []],
      [2, 'edited', [field]],
    ]);
    expect(history[0].row).toEqual(v1);
    expect(history[1]).toMatchObject({ by: 'Test Role3', at: expect.any(String), row: { [field]: value } });
  });

  it('marks entered in error with a reason: kept, out of the list, in the history; a second time is 404', async () => {
    const before = await rowCount(kind);
    const res = await api.remove(kind, id, 'Entered on the wrong patient');
    expect(res.statusCode).toBe(204);
    expect(await rowCount(kind)).toBe(before);
    expect((await api.list(kind, patient.id)).json().map((r: { id: number }) => r.id)).not.toContain(id);
    const last = (await api.history(kind, id)).json().at(-1);
    expect(last).toMatchObject({
      version: 3,
      action: 'entered-in-error',
      row: { enteredInErrorReason: 'Entered on the wrong patient', enteredInErrorBy: 'Test Role3', enteredInErrorAt: expect.any(String) },
    });
    expect((await api.remove(kind, id, 'again')).statusCode).toBe(404);
    expect((await api.edit(kind, id, { [field]: value }, [], 3)).statusCode).toBe(404);
  });

  it('marks entered in error without a reason (SPEC’s bodiless DELETE)', async () => {
    const row = (await api.add(kind, patient.id, SAMPLE_INPUTS[kind])).json();
    expect((await api.remove(kind, row.id)).statusCode).toBe(204);
    expect((await api.history(kind, row.id)).json().at(-1).row).toMatchObject({
      enteredInErrorReason: null,
      enteredInErrorAt: expect.any(String),
    });
  });

  it('answers an add sent twice with one Idempotency-Key once: one row, one audit row, the same answer', async () => {
    const key = randomUUID();
    const before = await state(kind);
    const first = await api.add(kind, patient.id, SAMPLE_INPUTS[kind], [], key);
    const again = await api.add(kind, patient.id, SAMPLE_INPUTS[kind], [], key);
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await state(kind)).toEqual([before[0]! + 1, before[1]! + 1]);
  });

  it('refuses the same key with another body (409) and a key that is not a UUID (400), storing nothing', async () => {
    const key = randomUUID();
    await api.add(kind, patient.id, SAMPLE_INPUTS[kind], [], key);
    const before = await state(kind);
    const reused = await api.add(kind, patient.id, { ...SAMPLE_INPUTS[kind], [field]: value }, [], key);
    expect(reused.statusCode).toBe(409);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    const bad = await api.add(kind, patient.id, SAMPLE_INPUTS[kind], [], 'not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(await state(kind)).toEqual(before);
  });
});

describe('hostile version and key headers', () => {
  it.each(['*', '"0"', 'W/"-1"', '"1", "2"', '1e3', 'x'.repeat(5000), "1' OR 1=1 --"])(
    'If-Match %j is 428 and changes nothing',
    async (ifMatch) => {
      const row = (await api.add('medications', patient.id, SAMPLE_INPUTS.medications)).json();
      const before = await state('medications');
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/medications/${row.id}`,
        headers: { cookie: doctorCookie, 'if-match': ifMatch },
        payload: { dosage: '1g daily' },
      });
      expect(res.statusCode).toBe(428);
      expect(await state('medications')).toEqual(before);
    },
  );

  it.each(['', ' ', 'x'.repeat(5000), "'; DROP TABLE diagnoses; --", '00000000-0000-0000-0000-00000000000g'])(
    'Idempotency-Key %j is 400 and stores nothing',
    async (key) => {
      const before = await state('medications');
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/patients/${patient.id}/medications`,
        headers: { cookie: doctorCookie, 'idempotency-key': key },
        payload: SAMPLE_INPUTS.medications,
      });
      expect(res.statusCode).toBe(400);
      expect(await state('medications')).toEqual(before);
    },
  );
});

describe('idempotent adds sent at the same moment', () => {
  it('store one row when both arrive together', async () => {
    const key = randomUUID();
    const before = await state('diagnoses');
    const [a, b] = await Promise.all([
      api.add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses, [], key),
      api.add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses, [], key),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().id).toBe(b.json().id);
    expect(await state('diagnoses')).toEqual([before[0]! + 1, before[1]! + 1]);
  });

  it('answer a retry as the first add did when the add would now be stopped by a warning (the duplicate it made)', async () => {
    const fresh = await createPatient(t.db, { lastName: 'Nangolo' });
    await confirmAccess(t, doctorCookie, fresh.id);
    const key = randomUUID();
    const coded = { ...SAMPLE_INPUTS.medications, name: 'Paracetamol', code: 'N02BE01', codeSystem: ATC_SYSTEM };
    const first = await api.add('medications', fresh.id, coded, [], key);
    expect(first.statusCode).toBe(201);
    const before = await state('medications');
    const again = await api.add('medications', fresh.id, coded, [], key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await state('medications')).toEqual(before);
    // Without the key the same add is a duplicate, which must be confirmed.
    expect((await api.add('medications', fresh.id, coded)).json().code).toBe('CONFIRMATION_REQUIRED');
  });

  it('answer a retry as the first add did after the grant ended, and refuse a new add then (403)', async () => {
    const doctor = await signInAs(t, 3);
    const mine = recordApi(t, doctor.cookie);
    await confirmAccess(t, doctor.cookie, patient.id);
    const key = randomUUID();
    const first = await mine.add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses, [], key);
    expect(first.statusCode).toBe(201);
    await t.db.execute(sql`UPDATE access_grants SET expires_at = now() - interval '1 minute' WHERE user_id = ${doctor.user.id}`);
    const before = await state('diagnoses');
    const again = await mine.add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses, [], key);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    const refused = await mine.add('diagnoses', patient.id, SAMPLE_INPUTS.diagnoses, [], randomUUID());
    expect(refused.statusCode).toBe(403);
    expect(await state('diagnoses')).toEqual(before);
  });

  it('keep keys per staff member: another user’s same key is their own add', async () => {
    const key = randomUUID();
    const nurse = await signInAs(t, 4);
    await confirmAccess(t, nurse.cookie, patient.id);
    const mine = await api.add('allergies', patient.id, SAMPLE_INPUTS.allergies, [], key);
    const theirs = await recordApi(t, nurse.cookie).add('allergies', patient.id, SAMPLE_INPUTS.allergies, [], key);
    expect([mine.statusCode, theirs.statusCode]).toEqual([201, 201]);
    expect(theirs.json().id).not.toBe(mine.json().id);
  });
});

describe('an edit the database stores otherwise than it was sent', () => {
  it('names only the fields that changed as stored: a weight rounded to its column back to the same value is no change', async () => {
    const row = (await api.add('vitals', patient.id, SAMPLE_INPUTS.vitals)).json();
    const res = await api.edit('vitals', row.id, { weight: 72.54, temperature: 37.1 }, [], 1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ weight: 72.5, temperature: 37.1, version: 2 });
    const history = (await api.history('vitals', row.id)).json() as { version: number; changed: string[] }[];
    expect(history.map((h) => [h.version, h.changed])).toEqual([
      [1, []],
      [2, ['temperature']],
    ]);
    const audit = await queryOne<{ new_values: unknown }>(
      t.db,
      sql`SELECT new_values FROM audit_logs WHERE action = 'UPDATE' AND resource_id = ${String(row.id)} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit?.new_values).toEqual({ version: 2, changed: ['temperature'] });
  });
});

describe('GET /api/patients/{id}/changes', () => {
  it('gives every row without a cursor, then only what changed since, entered in error included', async () => {
    const p = await createPatient(t.db, { lastName: 'Nangolo' });
    const doctor = await signInAs(t, 3);
    const a = recordApi(t, doctor.cookie);
    await confirmAccess(t, doctor.cookie, p.id);
    const d = (await a.add('diagnoses', p.id, SAMPLE_INPUTS.diagnoses)).json();
    const m = (await a.add('medications', p.id, SAMPLE_INPUTS.medications)).json();
    const all = await a.changes(p.id);
    expect(all.statusCode).toBe(200);
    expect(all.json().changes.map((c: { kind: string; id: number; state: string }) => [c.kind, c.id, c.state])).toEqual([
      ['diagnoses', d.id, 'current'],
      ['medications', m.id, 'current'],
    ]);
    // A read with a cursor may send a row again (a transaction anywhere on the server that was running when the cursor
    // was made holds it back): the same uuid and version, which the client keeps once. Nothing else may come.
    type Change = { kind: string; uuid: string; version: number; state: string; row: Record<string, unknown> | null };
    const known = new Set<string>();
    const fresh = (changes: Change[]): Change[] => {
      const out = changes.filter((c) => !known.has(`${c.uuid}:${c.version}`));
      for (const c of changes) known.add(`${c.uuid}:${c.version}`);
      return out;
    };
    fresh(all.json().changes as Change[]);
    const cursor = all.json().cursor as string;
    expect(fresh((await a.changes(p.id, cursor)).json().changes as Change[])).toEqual([]);
    await a.edit('medications', m.id, { dosage: '850mg daily' });
    await a.remove('diagnoses', d.id, 'Duplicate of an older entry');
    const since = (await a.changes(p.id, cursor)).json();
    const changed = fresh(since.changes as Change[]);
    expect(changed.map((c) => [c.kind, c.version, c.state])).toEqual([
      ['diagnoses', 2, 'entered-in-error'],
      ['medications', 2, 'current'],
    ]);
    expect(changed[1]!.row).toMatchObject({ dosage: '850mg daily', uuid: m.uuid });
    expect(fresh((await a.changes(p.id, since.cursor)).json().changes as Change[])).toEqual([]);
  });

  it('is audited as VIEW PATIENT naming how many rows it returned', async () => {
    const res = await api.changes(patient.id);
    const audit = await queryOne<{ action: string; resource_type: string; patient_id: number; new_values: { returned: number } }>(
      t.db,
      sql`SELECT action, resource_type, patient_id, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toMatchObject({ action: 'VIEW', resource_type: 'PATIENT', patient_id: patient.id, new_values: { view: 'CHANGES' } });
    expect(audit!.new_values.returned).toBe(res.json().changes.length);
  });

  it('refuses without a grant (403) and for an unknown patient (404), reading and writing nothing', async () => {
    const before = await auditCount(t);
    const res = await api.changes(ungranted.id);
    expect(res.statusCode).toBe(403);
    expect(res.body).not.toContain(ungranted.idNumber);
    expect((await api.changes(2_000_000_000)).statusCode).toBe(404);
    expect(await auditCount(t)).toBe(before);
  });

  it('refuses an unknown cursor, one of another patient and one never given out (400), writing nothing', async () => {
    const cursor = (await api.changes(patient.id)).json().cursor as string;
    const p = await createPatient(t.db, { lastName: 'Iipumbu' });
    const doctor = await signInAs(t, 3);
    await confirmAccess(t, doctor.cookie, p.id);
    const before = await auditCount(t);
    const future = Buffer.from(`c1.${patient.id}.99999999999`).toString('base64url');
    for (const since of ['not-a-cursor', future, cursor]) {
      const res = since === cursor ? await recordApi(t, doctor.cookie).changes(p.id, since) : await api.changes(patient.id, since);
      expect(res.statusCode, since).toBe(400);
      expect(res.json().code).toBe('INVALID_CURSOR');
    }
    expect((await api.changes(patient.id, '%%%')).statusCode).toBe(400);
    expect(await auditCount(t)).toBe(before);
  });
});

it('leaves an intact audit hash chain after all of the above', async () => {
  expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
});
