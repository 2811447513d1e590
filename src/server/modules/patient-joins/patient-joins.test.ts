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
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const SECOND_REVIEW_ROWS = 20;
let t: TestApp;
let admin: string;
let officer: string;
let doctor: string;

const post = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

/** An open pair of the two patients, as the matcher stores it. */
export async function openPair(db: TestApp['db'], a: number, b: number): Promise<number> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const row = await queryOne<{ id: number }>(
    db,
    sql`INSERT INTO duplicate_pairs (patient_a, patient_b, score, band, reasons, status, found_at, scored_at)
        VALUES (${lo}, ${hi}, 30, 'very-likely', '[]'::jsonb, 'open', now(), now()) RETURNING id`,
  );
  return row!.id;
}

/** Two records of one person, each with one row of every kind (added by the doctor, who may open both). */
async function twoRecords(): Promise<[TestPatient, TestPatient]> {
  const survivor = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
  const merged = await createPatient(t.db, { firstName: 'Ndapwea', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
  await t.db.execute(sql`UPDATE patients SET contact_number = '+264 81 222 3333', address = 'Erf 7, Oshakati, Oshana' WHERE id = ${merged.id}`);
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
    const row = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE patient_id = ${patientId}`);
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
    expect(body).toMatchObject({ id: pairId, status: 'same', join: { status: 'joined', survivor: { id: survivor.id }, merged: { id: merged.id } } });
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
    const events = await queryRows(t.db, sql`SELECT 1 FROM security_events WHERE event_type = 'PATIENT_JOIN' AND metadata ->> 'joinId' = ${String(body.joinId)}`);
    expect(events).toHaveLength(1);
  });

  it('undo puts both records back exactly; rows added to the survivor since stay there', async () => {
    const [survivor, merged] = await twoRecords();
    const pairId = await openPair(t.db, survivor.id, merged.id);
    const before = { survivor: await lists(survivor.id), merged: await lists(merged.id) };
    const patientsBefore = { survivor: await patientRow(survivor.id), merged: await patientRow(merged.id) };
    const joined = await post(admin, `/api/duplicates/${pairId}/decision`, {
      decision: 'same',
      survivorId: survivor.id,
      keep: { firstName: merged.id, address: merged.id },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const { joinId } = joined.json<{ joinId: number }>();
    const added = await recordApi(t, doctor).add('allergies', survivor.id, { ...SAMPLE_INPUTS.allergies, allergen: 'Sulfonamides' });
    expect(added.statusCode, added.body).toBe(201);
    const addedId = added.json<{ id: number }>().id;

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
    expect(await lists(merged.id)).toEqual(before.merged);
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
