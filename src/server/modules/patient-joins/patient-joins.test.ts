// Joining two records of one person through the real API (issue 24 items 4-5, decision 048): the join moves every
// clinical list to the survivor with the reviewer's demographic values, undo puts both records back exactly (every
// list compared row by row through the record API), rows added to the survivor since stay there, the second-reviewer
// rule, and the refusals (survivor not in the pair, an already-joined record, no patients.merge, a decided pair).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import type { PatientJoin } from '../../../contracts/patient-joins';
import { databaseFingerprint } from '../../test/db-fingerprint';
import { openPair } from '../../test/join-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { matchPatient } from '../duplicates/matcher';

const SECOND_REVIEW_ROWS = 20;
let t: TestApp;
let admin: string;
let officer: string;
let doctor: string;

const post = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

/** Two records of one person, each with one row of every kind (added by the doctor, who may open both). */
async function twoRecords(): Promise<[TestPatient, TestPatient]> {
  const survivor = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
  const merged = await createPatient(t.db, { firstName: 'Ndapwea', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
  await t.db.execute(
    sql`UPDATE patients SET contact_number = '+264 81 222 3333', address = 'Erf 7, Oshakati, Oshana' WHERE id = ${merged.id}`,
  );
  const api = recordApi(t, doctor);
  for (const p of [survivor, merged]) {
    await confirmAccess(t, doctor, p.id);
    for (const kind of RECORD_KINDS) {
      const res = await api.add(kind, p.id, SAMPLE_INPUTS[kind]);
      expect(res.statusCode, `${kind} ${res.body}`).toBe(201);
    }
  }
  return [survivor, merged];
}

/** Every list of the patient through the record API, as the doctor reads it. */
async function lists(patientId: number): Promise<Record<RecordKind, unknown[]>> {
  const api = recordApi(t, doctor);
  const out = {} as Record<RecordKind, unknown[]>;
  for (const kind of RECORD_KINDS) {
    const res = await api.list(kind, patientId);
    expect(res.statusCode, `${kind} ${res.body}`).toBe(200);
    out[kind] = res.json<unknown[]>();
  }
  return out;
}

const patientRow = (id: number) =>
  queryOne<Record<string, unknown>>(
    t.db,
    sql`SELECT first_name, last_name, date_of_birth::text, sex, contact_number, address, next_of_kin, next_of_kin_contact, restricted,
               replaced_by FROM patients WHERE id = ${id}`,
  );
const rowsOf = async (patientId: number) => {
  const counts: Record<string, number> = {};
  for (const table of ['allergies', 'appointments', 'diagnoses', 'lab_results', 'medications', 'vaccines', 'vitals', 'access_grants']) {
    const row = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE patient_id = ${patientId}`,
    );
    counts[table] = row!.n;
  }
  return counts;
};

beforeAll(async () => {
  t = await createTestApp({ join: { secondReviewRows: SECOND_REVIEW_ROWS } });
  admin = (await signInAs(t, ROLE_IDS.admin)).cookie;
  officer = (await signInAs(t, ROLE_IDS.healthInformationOfficer)).cookie;
  doctor = (await signInAs(t, ROLE_IDS.doctor)).cookie;
});
afterAll(async () => {
  await t?.close();
});

describe('join and undo', () => {
  it('joins: every list moves to the survivor, the kept values replace the survivor’s, the merged record is inactive', async () => {
    const [survivor, merged] = await twoRecords();
    const pairId = await openPair(t.db, survivor.id, merged.id);
    const before = { survivor: await lists(survivor.id), merged: await lists(merged.id) };
    const res = await post(officer, `/api/duplicates/${pairId}/decision`, {
      decision: 'same',
      survivorId: survivor.id,
      keep: { firstName: survivor.id, contactNumber: merged.id, address: merged.id },
      reason: 'Same person: checked the health passport',
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ id: number; status: string; joinId: number; join: PatientJoin }>();
    expect(body).toMatchObject({
      id: pairId,
      status: 'same',
      join: { status: 'joined', survivor: { id: survivor.id }, merged: { id: merged.id } },
    });
    expect(body.join.replaced).toEqual({
      contactNumber: { from: '+264 81 555 0101', to: '+264 81 222 3333' },
      address: { from: '12 Independence Avenue, Windhoek, Khomas', to: 'Erf 7, Oshakati, Oshana' },
    });
    expect(body.join.rowsMoved).toBeGreaterThanOrEqual(RECORD_KINDS.length);

    const after = await lists(survivor.id);
    for (const kind of RECORD_KINDS) {
      const ids = after[kind].map((r) => (r as { id: number }).id).sort();
      const expected = [...before.survivor[kind], ...before.merged[kind]].map((r) => (r as { id: number }).id).sort();
      expect(ids, kind).toEqual(expected);
    }
    expect(await patientRow(merged.id)).toMatchObject({ replaced_by: survivor.id });
    expect(await patientRow(survivor.id)).toMatchObject({ contact_number: '+264 81 222 3333', address: 'Erf 7, Oshakati, Oshana' });
    expect(Object.values(await rowsOf(merged.id)).every((n) => n === 0)).toBe(true);
    // One audit row per patient touched, and a security event.
    const audits = await queryRows<{ patient_id: number }>(
      t.db,
      sql`SELECT patient_id FROM audit_logs WHERE resource_type = 'PATIENT' AND new_values::jsonb ->> 'join' = ${String(body.joinId)} ORDER BY patient_id`,
    );
    expect(audits.map((a) => a.patient_id)).toEqual([survivor.id, merged.id].sort((a, b) => a - b));
    const events = await queryRows(
      t.db,
      sql`SELECT 1 FROM security_events WHERE event_type = 'PATIENT_JOIN' AND metadata ->> 'joinId' = ${String(body.joinId)}`,
    );
    expect(events).toHaveLength(1);
  });

  it('undo puts both records back exactly; rows added to the survivor since stay there', async () => {
    const [survivor, merged] = await twoRecords();
    await t.db.execute(sql`UPDATE patients SET restricted = true WHERE id = ${merged.id}`);
    const pairId = await openPair(t.db, survivor.id, merged.id);
    const before = { survivor: await lists(survivor.id), merged: await lists(merged.id) };
    const patientsBefore = { survivor: await patientRow(survivor.id), merged: await patientRow(merged.id) };
    const joined = await post(admin, `/api/duplicates/${pairId}/decision`, {
      decision: 'same',
      survivorId: survivor.id,
      keep: { firstName: merged.id, address: merged.id },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const { joinId, join } = joined.json<{ joinId: number; join: PatientJoin }>();
    // Restricted if either record was; each value replaced is in the join, to be put back.
    expect(await patientRow(survivor.id)).toMatchObject({ restricted: true, first_name: 'Ndapwea', address: 'Erf 7, Oshakati, Oshana' });
    expect(Object.keys(join.replaced).sort()).toEqual(['address', 'firstName', 'restricted']);
    const added = await recordApi(t, doctor).add('allergies', survivor.id, { ...SAMPLE_INPUTS.allergies, allergen: 'Sulfonamides' });
    expect(added.statusCode, added.body).toBe(201);
    const addedId = added.json<{ id: number }>().id;

    // A row of the merged record edited on the survivor after the join goes back with its new version and history.
    const editedId = (before.merged.diagnoses[0] as { id: number }).id;
    const edited = await recordApi(t, doctor).edit('diagnoses', editedId, { ...SAMPLE_INPUTS.diagnoses, description: 'HbA1c 7.2%' });
    expect(edited.statusCode, edited.body).toBe(200);
    const undone = await post(officer, `/api/patient-joins/${joinId}/undo`, { reason: 'Twins: a clinic nurse knows them both' });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(undone.json<PatientJoin>()).toMatchObject({ status: 'undone', undoReason: 'Twins: a clinic nurse knows them both' });

    expect(await patientRow(survivor.id)).toEqual(patientsBefore.survivor);
    expect(await patientRow(merged.id)).toEqual(patientsBefore.merged);
    const afterSurvivor = await lists(survivor.id);
    const { allergies, ...restSurvivor } = afterSurvivor;
    const { allergies: allergiesBefore, ...restBefore } = before.survivor;
    expect(restSurvivor).toEqual(restBefore);
    expect(allergies.filter((r) => (r as { id: number }).id !== addedId)).toEqual(allergiesBefore);
    expect(allergies.map((r) => (r as { id: number }).id)).toContain(addedId);
    const { diagnoses: diagnosesAfter, ...restMerged } = await lists(merged.id);
    const { diagnoses: diagnosesBefore, ...restMergedBefore } = before.merged;
    expect(restMerged).toEqual(restMergedBefore);
    expect(diagnosesAfter).toEqual([
      { ...(diagnosesBefore[0] as object), description: 'HbA1c 7.2%', version: 2, updatedAt: expect.any(String) },
    ]);
    const versions = await queryRows<{ patient_id: number }>(
      t.db,
      sql`SELECT DISTINCT patient_id FROM record_versions WHERE kind = 'diagnoses' AND item_id = ${editedId}`,
    );
    expect(versions).toEqual([{ patient_id: merged.id }]);
    // The pair is open again, to be decided anew; the undo is audited on both patients and a security event.
    expect(await queryOne(t.db, sql`SELECT status FROM duplicate_pairs WHERE id = ${pairId}`)).toEqual({ status: 'open' });
    const audits = await queryRows(
      t.db,
      sql`SELECT 1 FROM audit_logs WHERE resource_type = 'PATIENT' AND new_values::jsonb ->> 'join' = ${String(joinId)} AND new_values::jsonb ? 'undone'`,
    );
    expect(audits).toHaveLength(2);
    expect(await queryRows(t.db, sql`SELECT 1 FROM security_events WHERE event_type = 'PATIENT_JOIN_UNDONE'`)).not.toHaveLength(0);
    // A second undo is refused.
    const again = await post(officer, `/api/patient-joins/${joinId}/undo`, { reason: 'again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'JOIN_ALREADY_UNDONE' });
  });
});

describe('the portal sign-in', () => {
  it('keep.portal picks whose PIN stays on the survivor; undo gives each record its own back', async () => {
    const survivor = await createPatient(t.db);
    const merged = await createPatient(t.db);
    for (const p of [survivor, merged])
      await t.db.execute(
        sql`INSERT INTO patient_portal_credentials (patient_id, pin_hash, pin_set_at) VALUES (${p.id}, ${`pin-of-${p.id}`}, now())`,
      );
    const pins = () =>
      queryRows<{ patient_id: number; pin_hash: string }>(
        t.db,
        sql`SELECT patient_id, pin_hash FROM patient_portal_credentials WHERE patient_id IN (${survivor.id}, ${merged.id}) ORDER BY patient_id`,
      );
    const before = await pins();
    const joined = await post(admin, `/api/duplicates/${await openPair(t.db, survivor.id, merged.id)}/decision`, {
      decision: 'same',
      survivorId: survivor.id,
      keep: { portal: merged.id },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    expect(await pins()).toEqual([{ patient_id: survivor.id, pin_hash: `pin-of-${merged.id}` }]);
    const undone = await post(admin, `/api/patient-joins/${joined.json<{ joinId: number }>().joinId}/undo`, {
      reason: 'Not the same person',
    });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await pins()).toEqual(before);
  });
});

describe('refusals', () => {
  it('someone without patients.merge is refused (403) on every join route, and nothing changes', async () => {
    const [survivor, merged] = await twoRecords();
    const pairId = await openPair(t.db, survivor.id, merged.id);
    const before = await databaseFingerprint(t.db);
    const refused = [
      await post(doctor, `/api/duplicates/${pairId}/decision`, { decision: 'same', survivorId: survivor.id }),
      await post(doctor, '/api/patient-joins/1/approve'),
      await post(doctor, '/api/patient-joins/1/undo', { reason: 'wrong' }),
      await get(doctor, '/api/patient-joins'),
      await get(doctor, '/api/patient-joins/1'),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.body).not.toContain('Nghipondoka');
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('the survivor must be one of the pair (400), a joined-away record cannot be joined again (409), nor a decided pair', async () => {
    const [survivor, merged] = await twoRecords();
    const third = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
    const pairId = await openPair(t.db, survivor.id, merged.id);
    const otherPair = await openPair(t.db, merged.id, third.id);
    const outsider = await post(admin, `/api/duplicates/${pairId}/decision`, { decision: 'same', survivorId: third.id });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json()).toMatchObject({ code: 'JOIN_SURVIVOR_NOT_IN_PAIR' });
    const keepOutsider = await post(admin, `/api/duplicates/${pairId}/decision`, {
      decision: 'same',
      survivorId: survivor.id,
      keep: { lastName: third.id },
    });
    expect(keepOutsider.statusCode).toBe(400);
    expect(keepOutsider.json()).toMatchObject({ code: 'JOIN_KEEP_NOT_IN_PAIR' });

    expect((await post(admin, `/api/duplicates/${pairId}/decision`, { decision: 'same', survivorId: survivor.id })).statusCode).toBe(200);
    // The merged record's other open pairs were removed with the join; one decided earlier would stay. Put one back by hand
    // (as a stale client might still show it) to prove the join is refused.
    expect(await queryOne(t.db, sql`SELECT id FROM duplicate_pairs WHERE id = ${otherPair}`)).toBeUndefined();
    const stale = await openPair(t.db, merged.id, third.id);
    const before = await databaseFingerprint(t.db);
    const again = await post(admin, `/api/duplicates/${stale}/decision`, { decision: 'same', survivorId: third.id });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'PATIENT_ALREADY_JOINED', patientId: merged.id, survivorId: survivor.id });
    const decided = await post(admin, `/api/duplicates/${pairId}/decision`, { decision: 'same', survivorId: survivor.id });
    expect(decided.statusCode).toBe(409);
    expect(decided.json()).toMatchObject({ code: 'DUPLICATE_PAIR_DECIDED' });
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});

describe('the second reviewer', () => {
  it('above the row limit the join waits: nothing moves, the requester cannot approve, another holder of patients.merge does', async () => {
    const [survivor, merged] = await twoRecords();
    for (let i = 0; i < SECOND_REVIEW_ROWS; i++)
      expect((await recordApi(t, doctor).add('vitals', merged.id, { ...SAMPLE_INPUTS.vitals, weight: 60 + i })).statusCode).toBe(201);
    const pairId = await openPair(t.db, survivor.id, merged.id);
    const countsBefore = { survivor: await rowsOf(survivor.id), merged: await rowsOf(merged.id) };
    const asked = await post(officer, `/api/duplicates/${pairId}/decision`, {
      decision: 'same',
      survivorId: survivor.id,
      keep: { address: merged.id },
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const { joinId, join } = asked.json<{ joinId: number; join: PatientJoin }>();
    expect(join).toMatchObject({ status: 'pending', rowsMoved: 0, joinedAt: null });
    expect(join.clinicalRows).toBeGreaterThan(SECOND_REVIEW_ROWS);
    expect({ survivor: await rowsOf(survivor.id), merged: await rowsOf(merged.id) }).toEqual(countsBefore);
    expect(await patientRow(merged.id)).toMatchObject({ replaced_by: null });

    // While it waits, neither record can be joined elsewhere.
    const third = await createPatient(t.db);
    const elsewhere = await post(admin, `/api/duplicates/${await openPair(t.db, merged.id, third.id)}/decision`, {
      decision: 'same',
      survivorId: third.id,
    });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json()).toMatchObject({ code: 'JOIN_PENDING', joinId });

    const own = await post(officer, `/api/patient-joins/${joinId}/approve`);
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: 'APPROVE_OWN_JOIN' });
    expect((await post(doctor, `/api/patient-joins/${joinId}/approve`)).statusCode).toBe(403);
    expect({ survivor: await rowsOf(survivor.id), merged: await rowsOf(merged.id) }).toEqual(countsBefore);

    const approved = await post(admin, `/api/patient-joins/${joinId}/approve`);
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json<PatientJoin>()).toMatchObject({
      status: 'joined',
      approvedBy: expect.any(String),
      requestedBy: expect.any(String),
    });
    expect((await rowsOf(survivor.id)).vitals).toBe(countsBefore.survivor.vitals! + countsBefore.merged.vitals!);
    expect(await patientRow(merged.id)).toMatchObject({ replaced_by: survivor.id });
    const twice = await post(admin, `/api/patient-joins/${joinId}/approve`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toMatchObject({ code: 'JOIN_NOT_PENDING' });
  });

  it('undo of a waiting join cancels it: nothing moved, the pair is open again', async () => {
    const [survivor, merged] = await twoRecords();
    for (let i = 0; i < SECOND_REVIEW_ROWS; i++)
      await recordApi(t, doctor).add('vitals', survivor.id, { ...SAMPLE_INPUTS.vitals, weight: 50 + i });
    const pairId = await openPair(t.db, survivor.id, merged.id);
    const { joinId } = (await post(officer, `/api/duplicates/${pairId}/decision`, { decision: 'same', survivorId: survivor.id })).json<{
      joinId: number;
    }>();
    const cancelled = await post(officer, `/api/patient-joins/${joinId}/undo`, { reason: 'Asked the wrong pair' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<PatientJoin>()).toMatchObject({ status: 'undone', joinedAt: null });
    expect(await queryOne(t.db, sql`SELECT status FROM duplicate_pairs WHERE id = ${pairId}`)).toEqual({ status: 'open' });
    expect((await post(admin, `/api/patient-joins/${joinId}/approve`)).json()).toMatchObject({ code: 'JOIN_NOT_PENDING' });
  });
});

describe('chains, lists and the matcher', () => {
  it('a survivor joined away later: its earlier join is undone only after the later one', async () => {
    const [a, b] = await twoRecords();
    const c = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
    const first = (
      await post(admin, `/api/duplicates/${await openPair(t.db, a.id, b.id)}/decision`, { decision: 'same', survivorId: a.id })
    ).json<{
      joinId: number;
    }>().joinId;
    const later = await post(admin, `/api/duplicates/${await openPair(t.db, a.id, c.id)}/decision`, { decision: 'same', survivorId: c.id });
    expect(later.statusCode, later.body).toBe(200);
    const refused = await post(admin, `/api/patient-joins/${first}/undo`, { reason: 'Wrong' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'JOIN_UNDO_LATER_FIRST', joinId: later.json<{ joinId: number }>().joinId });
    expect((await post(admin, `/api/patient-joins/${later.json<{ joinId: number }>().joinId}/undo`, { reason: 'Wrong' })).statusCode).toBe(
      200,
    );
    expect((await post(admin, `/api/patient-joins/${first}/undo`, { reason: 'Wrong' })).statusCode).toBe(200);
    for (const p of [a, b, c]) expect(await patientRow(p.id)).toMatchObject({ replaced_by: null });
  });

  it('lists joins newest first, by status and patient, and one by id; each read is audited as a VIEW', async () => {
    const [survivor, merged] = await twoRecords();
    const { joinId } = (
      await post(admin, `/api/duplicates/${await openPair(t.db, survivor.id, merged.id)}/decision`, {
        decision: 'same',
        survivorId: survivor.id,
      })
    ).json<{ joinId: number }>();
    const all = (await get(officer, '/api/patient-joins')).json<PatientJoin[]>();
    expect(all[0]!.id).toBe(joinId);
    expect(all.map((j) => j.requestedAt)).toEqual([...all.map((j) => j.requestedAt)].sort().reverse());
    const mine = (await get(officer, `/api/patient-joins?patientId=${merged.id}&status=joined`)).json<PatientJoin[]>();
    expect(mine.map((j) => j.id)).toEqual([joinId]);
    expect((await get(officer, `/api/patient-joins?patientId=${merged.id}&status=undone`)).json()).toEqual([]);
    const one = await get(officer, `/api/patient-joins/${joinId}`);
    expect(one.json<PatientJoin>()).toMatchObject({ id: joinId, survivor: { id: survivor.id }, merged: { id: merged.id } });
    expect((await get(officer, '/api/patient-joins/99999999')).json()).toMatchObject({ code: 'PATIENT_JOIN_NOT_FOUND' });
    const views = await queryRows<{ ids: number[] }>(
      t.db,
      sql`SELECT new_values::jsonb -> 'patientIds' AS ids FROM audit_logs WHERE resource_type = 'PATIENT_JOIN' AND action = 'VIEW'
           AND resource_id = ${String(joinId)}`,
    );
    expect(views[0]?.ids).toEqual(expect.arrayContaining([survivor.id, merged.id]));
  });

  it('a joined-away record is never proposed again: the matcher pairs a look-alike with the survivor only', async () => {
    const [survivor, merged] = await twoRecords();
    await post(admin, `/api/duplicates/${await openPair(t.db, survivor.id, merged.id)}/decision`, {
      decision: 'same',
      survivorId: survivor.id,
    });
    const lookAlike = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
    await matchPatient(t.db, lookAlike.id, t.config.match, new Date());
    await matchPatient(t.db, merged.id, t.config.match, new Date());
    const pairs = await queryRows<{ a: number; b: number }>(
      t.db,
      sql`SELECT patient_a AS a, patient_b AS b FROM duplicate_pairs WHERE status = 'open' AND (patient_a = ${merged.id} OR patient_b = ${merged.id})`,
    );
    expect(pairs).toEqual([]);
    const withSurvivor = await queryRows(
      t.db,
      sql`SELECT 1 FROM duplicate_pairs WHERE status = 'open' AND ${lookAlike.id} IN (patient_a, patient_b) AND ${survivor.id} IN (patient_a, patient_b)`,
    );
    expect(withSurvivor).toHaveLength(1);
  });
});
