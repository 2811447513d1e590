// Old numbers keep working (issue 24 item 6, decision 048): after a join, the merged-away NC number finds the survivor
// (saying so), name searches show the survivor once, GET /api/patients/{old} answers the inactive record with
// `replacedBy` to a user who may open the survivor, the survivor lists `replaces`, and every record route on the old
// id answers 409 PATIENT_JOINED naming the survivor, changing nothing. After undo, everything answers as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { joinPatients, undoJoin, type TestJoin } from '../../test/join-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let cookie: string;
let survivor: TestPatient;
let merged: TestPatient;
let join: TestJoin;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signInAs(t, ROLE_IDS.doctor)).cookie;
  survivor = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Amukoto', dateOfBirth: '1984-07-21' });
  merged = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Amukoto', dateOfBirth: '1984-07-21' });
  join = await joinPatients(t, survivor.id, merged.id);
});
afterAll(async () => {
  await t?.close();
});

const search = (body: object, as = cookie) =>
  t.app.inject({ method: 'POST', url: '/api/patients/search', headers: { cookie: as }, payload: body });
const get = (url: string, as = cookie) => t.app.inject({ method: 'GET', url, headers: { cookie: as } });

describe('the merged-away NC number', () => {
  it('finds the survivor by exact search, saying it was found through the joined number, and audits the survivor', async () => {
    const res = await search({ method: 'id-number', idNumber: merged.idNumber });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      expect.objectContaining({ id: survivor.id, idNumber: survivor.idNumber, joinedFrom: { idNumber: merged.idNumber } }),
    ]);
    const row = await queryOne<{ patient_id: number }>(
      t.db,
      sql`SELECT patient_id FROM audit_logs WHERE action = 'SEARCH' ORDER BY id DESC LIMIT 1`,
    );
    expect(row?.patient_id).toBe(survivor.id);
  });

  it("the survivor's own number answers without joinedFrom", async () => {
    const [found] = (await search({ method: 'id-number', idNumber: survivor.idNumber })).json() as object[];
    expect(found).toMatchObject({ id: survivor.id });
    expect(found).not.toHaveProperty('joinedFrom');
  });

  it('name + date of birth and the smart search list the survivor once, never the inactive record', async () => {
    const exact = (await search({ method: 'name-dob', lastName: 'Amukoto', dateOfBirth: '1984-07-21' })).json() as { id: number }[];
    expect(exact.map((p) => p.id)).toEqual([survivor.id]);
    const fuzzy = (await search({ method: 'fuzzy-name', fullName: 'Ndapewa Amukoto', ageRangeMin: 30, ageRangeMax: 60 })).json() as {
      id: number;
    }[];
    expect(fuzzy.map((p) => p.id)).toContain(survivor.id);
    expect(fuzzy.map((p) => p.id)).not.toContain(merged.id);
    expect(fuzzy.filter((p) => p.id === survivor.id)).toHaveLength(1);
  });
});

describe('the API on the old and the surviving id', () => {
  it('GET /api/patients/{old} without a grant on the survivor: 409 PATIENT_JOINED naming the survivor, no NC number', async () => {
    const { cookie: other } = await signInAs(t, ROLE_IDS.doctor);
    const res = await get(`/api/patients/${merged.id}`, other);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'PATIENT_JOINED', survivorId: survivor.id });
    expect(res.json()).not.toHaveProperty('survivorIdNumber');
  });

  it('GET /api/patients/{old} with a grant on the survivor: the inactive record with replacedBy, audited', async () => {
    await confirmAccess(t, cookie, survivor.id);
    const res = await get(`/api/patients/${merged.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: merged.id,
      idNumber: merged.idNumber,
      replacedBy: { id: survivor.id, idNumber: survivor.idNumber, lastName: 'Amukoto' },
    });
    const row = await queryOne<{ patient_id: number; new_values: object }>(
      t.db,
      sql`SELECT patient_id, new_values FROM audit_logs WHERE action = 'VIEW' ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toMatchObject({ patient_id: merged.id, new_values: { view: 'DEMOGRAPHICS', replacedBy: survivor.id } });
  });

  it('GET /api/patients/{survivor} lists the record joined into it', async () => {
    const res = await get(`/api/patients/${survivor.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      id: survivor.id,
      replaces: [{ id: merged.id, idNumber: merged.idNumber, joinedAt: join.joinedAt }],
    });
    expect(res.json()).not.toHaveProperty('replacedBy');
  });

  it('every record route on the old id answers 409 PATIENT_JOINED with the survivor, and writes nothing', async () => {
    const api = recordApi(t, cookie);
    const before = await auditCount(t);
    const answers = [
      await get(`/api/patients/${merged.id}/record-summary`),
      await get(`/api/patients/${merged.id}/changes`),
      await api.list('allergies', merged.id),
      await api.add('allergies', merged.id, SAMPLE_INPUTS.allergies),
      await t.app.inject({ method: 'POST', url: `/api/patients/${merged.id}/access`, headers: { cookie }, payload: { consent: true } }),
      await t.app.inject({
        method: 'POST',
        url: `/api/patients/${merged.id}/access`,
        headers: { cookie },
        payload: { consent: false, reason: 'Unconscious on arrival' },
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ code: 'PATIENT_JOINED', survivorId: survivor.id });
    }
    expect(await auditCount(t)).toBe(before);
    const grants = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM access_grants WHERE patient_id = ${merged.id}`);
    expect(grants?.n).toBe(0);
  });

  it('a record route on the old id tells the NC number of the survivor only to a user with a grant there', async () => {
    for (const res of [await recordApi(t, cookie).list('allergies', merged.id), await get(`/api/patients/${merged.id}/record-summary`)]) {
      expect(res.json()).toMatchObject({ code: 'PATIENT_JOINED', survivorId: survivor.id, survivorIdNumber: survivor.idNumber });
    }
    const { cookie: other } = await signInAs(t, ROLE_IDS.doctor);
    for (const res of [
      await recordApi(t, other).list('allergies', merged.id),
      await get(`/api/patients/${merged.id}/record-summary`, other),
    ]) {
      expect(res.json()).toMatchObject({ code: 'PATIENT_JOINED', survivorId: survivor.id });
      expect(res.json()).not.toHaveProperty('survivorIdNumber');
    }
  });

  it('follows a chain of joins to the record the number belongs to now', async () => {
    const third = await createPatient(t.db, { lastName: 'Amukoto-Shilongo', dateOfBirth: '1984-07-21' });
    const first = await createPatient(t.db, { lastName: 'Amukoto-Shilongo', dateOfBirth: '1984-07-21' });
    const middle = await createPatient(t.db, { lastName: 'Amukoto-Shilongo', dateOfBirth: '1984-07-21' });
    await joinPatients(t, middle.id, first.id);
    await joinPatients(t, third.id, middle.id);
    const [found] = (await search({ method: 'id-number', idNumber: first.idNumber })).json() as object[];
    expect(found).toMatchObject({ id: third.id, joinedFrom: { idNumber: first.idNumber } });
    expect((await get(`/api/patients/${first.id}/allergies`)).json()).toMatchObject({ survivorId: third.id });
    await confirmAccess(t, cookie, third.id);
    const replaces = ((await get(`/api/patients/${third.id}`)).json() as { replaces: { id: number }[] }).replaces.map((r) => r.id);
    expect(replaces.sort()).toEqual([first.id, middle.id].sort());
  });
});

describe('after undo', () => {
  it('the old number finds its own record again, and its routes answer as for any record', async () => {
    await undoJoin(t, join);
    const [found] = (await search({ method: 'id-number', idNumber: merged.idNumber })).json() as object[];
    expect(found).toMatchObject({ id: merged.id, idNumber: merged.idNumber });
    expect(found).not.toHaveProperty('joinedFrom');
    const both = (await search({ method: 'name-dob', lastName: 'Amukoto', dateOfBirth: '1984-07-21' })).json() as { id: number }[];
    expect(both.map((p) => p.id).sort()).toEqual([survivor.id, merged.id].sort());
    const list = await recordApi(t, cookie).list('allergies', merged.id);
    expect(list.statusCode).toBe(403);
    expect(list.json()).toMatchObject({ code: 'ACCESS_GRANT_REQUIRED' });
    await confirmAccess(t, cookie, merged.id);
    const read = (await get(`/api/patients/${merged.id}`)).json() as object;
    expect(read).not.toHaveProperty('replacedBy');
    expect(read).not.toHaveProperty('replaces');
    expect((await get(`/api/patients/${survivor.id}`)).json()).not.toHaveProperty('replaces');
  });
});

describe('hostile ids on the old-number paths', () => {
  it.each(['0', '-1', '2147483648', 'abc', '1e3'])('GET /api/patients/%s answers 400 or 404', async (id) => {
    const res = await get(`/api/patients/${id}`);
    expect([400, 404]).toContain(res.statusCode);
  });
});
