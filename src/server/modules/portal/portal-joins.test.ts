// The patient is told (issue 24 item 7, decision 048): the portal lists each live join of the patient's record with
// the facilities where the two records were registered and the date, and "Report that this is wrong" opens one
// privacy-review case (PATIENT_JOIN_REPORTED among the reviewers' alerts) per join and patient. Another patient is
// refused (404, nothing written), staff sessions are refused, bad ids are 400, and after undo the notice is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import type { PortalJoins } from '../../../contracts/portal-joins';
import { joinPatients, undoJoin, type TestJoin } from '../../test/join-fixtures';
import { createPatient } from '../../test/patient-fixtures';
import { signInPatient } from '../../test/portal-fixtures';
import { staffFrom } from '../../test/privacy-fixtures';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let survivor: { id: number; ncNumber: string; dateOfBirth: string };
let merged: { id: number; ncNumber: string; dateOfBirth: string };
let join: TestJoin;
let patientCookie: string;
let otherCookie: string;

const register = async (facility: string, lastName: string) => {
  const desk = await staffFrom(t.app, t.db, { roleId: ROLE_IDS.receptionist, facility, lastName: `Desk${lastName}` });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/patients',
    headers: { cookie: desk.cookie },
    payload: {
      firstName: 'Hilma',
      lastName,
      sex: 'Female',
      dateOfBirth: '1979-05-02',
      address: '3 Sam Nujoma Drive, Ongwediva',
      confirmDuplicate: true,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  const body = res.json() as { id?: number; idNumber?: string; patient?: { id: number; idNumber: string } };
  const p = body.patient ?? (body as { id: number; idNumber: string });
  return { id: p.id, ncNumber: p.idNumber, dateOfBirth: '1979-05-02' };
};
const joins = async (cookie = patientCookie): Promise<PortalJoins> => {
  const res = await t.app.inject({ method: 'GET', url: '/api/patient-portal/joins', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const report = (id: number | string, cookie = patientCookie) =>
  t.app.inject({ method: 'POST', url: `/api/patient-portal/joins/${id}/report`, headers: { cookie } });
const cases = async (): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM security_events WHERE event_type = 'PATIENT_JOIN_REPORTED'`))!.n;

beforeAll(async () => {
  t = await createTestApp();
  survivor = await register('Oshakati State Hospital', 'Shikongo');
  merged = await register('Katutura State Hospital', 'Nghipondoka');
  join = await joinPatients(t, survivor.id, merged.id);
  patientCookie = await signInPatient(t, survivor);
  const other = await createPatient(t.db);
  otherCookie = await signInPatient(t, { id: other.id, ncNumber: other.idNumber, dateOfBirth: other.dateOfBirth });
});
afterAll(async () => {
  await t?.close();
});

describe('the notice of joined records', () => {
  it('names the facilities where each record was registered and when they were joined, audited', async () => {
    expect(await joins()).toEqual({
      items: [
        {
          id: join.id,
          joinedAt: join.joinedAt,
          facilities: ['Katutura State Hospital', 'Oshakati State Hospital'],
          reported: false,
        },
      ],
    });
    const row = await queryOne<{ patient_id: number; new_values: object }>(
      t.db,
      sql`SELECT patient_id, new_values FROM audit_logs WHERE action = 'VIEW' ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({ patient_id: survivor.id, new_values: { view: 'JOINS', returned: 1 } });
  });

  it('says plainly when a record has no known facility (null)', async () => {
    const bare = await createPatient(t.db);
    const withBare = await joinPatients(t, survivor.id, bare.id);
    const item = (await joins()).items.find((i) => i.id === withBare.id)!;
    expect(item.facilities).toEqual([null, 'Oshakati State Hospital']);
    await undoJoin(t, withBare);
    // An undo ends the survivor's portal sessions (decision 048): the patient signs in again.
    expect((await t.app.inject({ method: 'GET', url: '/api/patient-portal/joins', headers: { cookie: patientCookie } })).statusCode).toBe(
      401,
    );
    patientCookie = await signInPatient(t, survivor);
  });

  it('shows another patient nothing of this join', async () => {
    expect(await joins(otherCookie)).toEqual({ items: [] });
  });
});

describe('reporting a join as wrong', () => {
  it('refuses another patient with 404 and writes nothing', async () => {
    const audits = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`);
    const res = await report(join.id, otherCookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await cases()).toBe(0);
    expect(await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`)).toEqual(audits);
  });

  it('opens one privacy-review case naming the join and both records; a second report does not duplicate it', async () => {
    const first = await report(join.id);
    expect(first.statusCode, first.body).toBe(201);
    const { caseId } = first.json() as { caseId: number };
    expect(first.json()).toEqual({ created: true, caseId });
    const again = await report(join.id);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ created: false, caseId });
    expect(await cases()).toBe(1);
    expect((await joins()).items[0]).toMatchObject({ id: join.id, reported: true });
    const event = await queryOne<{ severity: string; user_id: string | null; metadata: object }>(
      t.db,
      sql`SELECT severity, user_id, metadata FROM security_events WHERE id = ${caseId}`,
    );
    expect(event).toMatchObject({
      severity: 'HIGH',
      user_id: null,
      metadata: { joinId: join.id, survivorId: survivor.id, mergedId: merged.id, patientId: survivor.id },
    });
    const audit = await queryOne<{ action: string; patient_id: number; new_values: object }>(
      t.db,
      sql`SELECT action, patient_id, new_values FROM audit_logs WHERE action = 'UPDATE' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      action: 'UPDATE',
      patient_id: survivor.id,
      new_values: { joinReported: { joinId: join.id, survivorId: survivor.id, mergedId: merged.id, caseId, created: false } },
    });
    // The reviewers see the case among their alerts.
    const { cookie: auditor } = await signInAs(t, ROLE_IDS.auditor);
    const alerts = await t.app.inject({ method: 'GET', url: '/api/privacy-reviews/alerts', headers: { cookie: auditor } });
    expect(alerts.statusCode, alerts.body).toBe(200);
    expect((alerts.json() as { items: object[] }).items).toContainEqual(
      expect.objectContaining({
        id: caseId,
        type: 'PATIENT_JOIN_REPORTED',
        user: null,
        patientJoin: { joinId: join.id, survivorId: survivor.id, mergedId: merged.id },
      }),
    );
  });

  it('answers 400 for a malformed id and 404 for an unknown join', async () => {
    for (const bad of ['0', '-1', 'abc', '2147483648', '1.5']) expect((await report(bad)).statusCode).toBe(400);
    expect((await report(2_000_000_000)).statusCode).toBe(404);
    expect(await cases()).toBe(1);
  });

  it('refuses a staff session on the portal routes', async () => {
    const { cookie: staff } = await signInAs(t, ROLE_IDS.doctor);
    expect((await t.app.inject({ method: 'GET', url: '/api/patient-portal/joins', headers: { cookie: staff } })).statusCode).toBe(403);
    expect((await report(join.id, staff)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/patient-portal/joins' })).statusCode).toBe(401);
  });

  it('after undo the notice is gone and the join can no longer be reported', async () => {
    await undoJoin(t, join);
    patientCookie = await signInPatient(t, survivor);
    expect(await joins()).toEqual({ items: [] });
    expect((await report(join.id)).statusCode).toBe(404);
  });
});
