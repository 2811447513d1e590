// No row lost to a join (decision 048): an add for the merged-away patient racing the join lands on the survivor or is
// refused 409 PATIENT_JOINED, never on the inactive record; an edit racing it is kept. And hostile bodies on the
// join routes: a 4xx, nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { databaseFingerprint } from '../../test/db-fingerprint';
import { hostileText, hostileTypes } from '../../test/hostile-values';
import { openPair } from '../../test/join-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let admin: string;
let doctor: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signInAs(t, ROLE_IDS.admin)).cookie;
  doctor = (await signInAs(t, ROLE_IDS.doctor)).cookie;
});
afterAll(async () => {
  await t?.close();
});

async function pairWithRecords(): Promise<{ survivor: TestPatient; merged: TestPatient; pairId: number; allergyId: number }> {
  const survivor = await createPatient(t.db);
  const merged = await createPatient(t.db);
  for (const p of [survivor, merged]) await confirmAccess(t, doctor, p.id);
  const added = await recordApi(t, doctor).add('allergies', merged.id, SAMPLE_INPUTS.allergies);
  expect(added.statusCode).toBe(201);
  return { survivor, merged, pairId: await openPair(t.db, survivor.id, merged.id), allergyId: added.json<{ id: number }>().id };
}

const join = (pairId: number, survivorId: number) =>
  t.app.inject({
    method: 'POST',
    url: `/api/duplicates/${pairId}/decision`,
    headers: { cookie: admin },
    payload: { decision: 'same', survivorId },
  });
const onPatient = async (table: string, patientId: number) =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE patient_id = ${patientId}`))!.n;

/** Sessions waiting for a lock in this database (PostgreSQL). */
const waiting = async () =>
  (await queryOne<{ n: number }>(
    t.db,
    sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  ))!.n;
async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out waiting for a lock');
}

describe('a join racing adds and edits', () => {
  it('an add and an edit sent while the join is under way: nothing lands on the inactive record, nothing is lost', async () => {
    const { survivor, merged, pairId, allergyId } = await pairWithRecords();
    const api = recordApi(t, doctor);
    if (t.database.url === undefined) {
      // PGlite has one connection: the requests run one after another, in either order.
      const [joined, add] = await Promise.all([join(pairId, survivor.id), api.add('vitals', merged.id, SAMPLE_INPUTS.vitals)]);
      expect(joined.statusCode, joined.body).toBe(200);
      if (add.statusCode === 409) expect(add.json()).toMatchObject({ code: 'PATIENT_JOINED', survivorId: survivor.id });
      else expect(add.statusCode, add.body).toBe(201);
    } else {
      // PostgreSQL: hold the join after it has locked both patients (a lock on a table it writes later), then send an
      // edit of a row it will move and an add for the merged patient, and let the join go on.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let taken!: () => void;
      const lockTaken = new Promise<void>((resolve) => (taken = resolve));
      const blocker = t.db.transaction(async (tx) => {
        await tx.execute(sql`LOCK TABLE search_volume IN SHARE MODE`);
        taken();
        await held;
      });
      await lockTaken;
      const joining = join(pairId, survivor.id);
      await until(async () => (await waiting()) >= 1);
      const editing = api.edit('allergies', allergyId, { ...SAMPLE_INPUTS.allergies, reaction: 'Anaphylaxis' });
      const adding = api.add('vitals', merged.id, SAMPLE_INPUTS.vitals);
      await until(async () => (await waiting()) >= 2);
      release();
      await blocker;
      const [joined, edit, add] = await Promise.all([joining, editing, adding]);
      expect(joined.statusCode, joined.body).toBe(200);
      expect(add.statusCode, add.body).toBe(409);
      expect(add.json()).toMatchObject({ code: 'PATIENT_JOINED', survivorId: survivor.id });
      expect(edit.statusCode, edit.body).toBe(200);
    }
    for (const table of ['allergies', 'vitals', 'record_versions']) expect(await onPatient(table, merged.id), table).toBe(0);
    const allergy = await queryOne<{ patient_id: number; reaction: string }>(
      t.db,
      sql`SELECT patient_id, reaction FROM allergies WHERE id = ${allergyId}`,
    );
    expect(allergy!.patient_id).toBe(survivor.id);
    // After the join an add for the merged record is refused with the survivor's id; for the survivor it works.
    const late = await api.add('vitals', merged.id, SAMPLE_INPUTS.vitals);
    expect([403, 409]).toContain(late.statusCode);
    if (late.statusCode === 409) expect(late.json()).toMatchObject({ code: 'PATIENT_JOINED', survivorId: survivor.id });
    expect((await api.add('vitals', survivor.id, SAMPLE_INPUTS.vitals)).statusCode).toBe(201);
    expect(await onPatient('vitals', merged.id)).toBe(0);
  });
});

describe('hostile bodies on the join routes', () => {
  it('answer a 4xx and change nothing', async () => {
    const { survivor, merged, pairId } = await pairWithRecords();
    const joined = await join(pairId, survivor.id);
    const { joinId } = joined.json<{ joinId: number }>();
    const other = await createPatient(t.db);
    const openId = await openPair(t.db, survivor.id, other.id);
    const before = await databaseFingerprint(t.db);
    const bodies: [string, unknown][] = [];
    const values = [...hostileText(0, false), ...hostileTypes(0)];
    for (const { value, mustRefuse } of values) {
      if (!mustRefuse) continue;
      bodies.push([`/api/duplicates/${openId}/decision`, { decision: 'same', survivorId: value }]);
      bodies.push([`/api/duplicates/${openId}/decision`, { decision: 'same', survivorId: survivor.id, reason: value }]);
      bodies.push([`/api/duplicates/${openId}/decision`, { decision: 'same', survivorId: survivor.id, keep: { address: value } }]);
      bodies.push([`/api/duplicates/${openId}/decision`, { decision: 'same', survivorId: survivor.id, keep: value }]);
      bodies.push([`/api/patient-joins/${joinId}/undo`, { reason: value }]);
    }
    bodies.push([
      `/api/duplicates/${openId}/decision`,
      { decision: 'same', survivorId: survivor.id, keep: { portal: merged.id, extra: 1 } },
    ]);
    bodies.push([`/api/patient-joins/${joinId}/undo`, {}]);
    bodies.push([`/api/patient-joins/${joinId}/undo`, { reason: '   ' }]);
    bodies.push([`/api/patient-joins/${joinId}/undo`, { reason: 'x'.repeat(501) }]);
    bodies.push([`/api/patient-joins/${joinId}/undo`, { reason: 'ok', extra: true }]);
    bodies.push(['/api/patient-joins/0/undo', { reason: 'ok' }]);
    bodies.push(["/api/patient-joins/1'/approve", {}]);
    for (const [url, payload] of bodies) {
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie: admin }, payload: payload as object });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)} ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBeLessThan(500);
    }
    for (const query of ['status=merged', 'patientId=0', 'patientId=abc', 'patientId=%00', 'other=1']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/patient-joins?${query}`, headers: { cookie: admin } });
      expect(res.statusCode, query).toBe(400);
    }
    expect(await databaseFingerprint(t.db)).toEqual(before);
    expect(await queryRows(t.db, sql`SELECT status FROM patient_joins WHERE id = ${joinId}`)).toEqual([{ status: 'joined' }]);
  });
});
