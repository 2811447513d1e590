// Joined histories (issue 24 item 4's union, decision 048): audit rows keep the patient id they were written with, so
// every history of a person reads the rows of every record joined into theirs. A break-the-glass access to the
// merged-away record before the join shows, after it, on the audit screen filtered by the survivor, in the survivor's
// portal access history (and its unreviewed counter), and in the privacy review filtered by either record; after undo
// it belongs to the old record alone again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { joinPatients, undoJoin, type TestJoin } from '../../test/join-fixtures';
import { signInPatient } from '../../test/portal-fixtures';
import { breakGlass, insertPatientAt, staffFrom, WINDHOEK, type SignedInStaff } from '../../test/privacy-fixtures';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let auditor: string;
let paramedic: SignedInStaff;
let survivor: { id: number; idNumber: string };
let merged: { id: number; idNumber: string };
let stranger: { id: number; idNumber: string };
let accessId: number;
let join: TestJoin;

const DOB = '1980-03-14';
const get = (url: string, cookie = auditor) => t.app.inject({ method: 'GET', url, headers: { cookie } });

beforeAll(async () => {
  t = await createTestApp();
  auditor = (await signInAs(t, ROLE_IDS.auditor)).cookie;
  paramedic = await staffFrom(t.app, t.db, { firstName: 'Johannes', lastName: 'Ndeitunga', facility: 'Katutura State Hospital' });
  survivor = await insertPatientAt(t.db, 'Haufiku', WINDHOEK, 'Ndinelao');
  merged = await insertPatientAt(t.db, 'Haufiku', WINDHOEK, 'Ndinelao');
  stranger = await insertPatientAt(t.db, 'Iipinge', WINDHOEK, 'Petrus');
  await t.db.execute(sql`UPDATE patients SET date_of_birth = ${DOB}::date WHERE id IN (${survivor.id}, ${merged.id})`);
  await breakGlass(t.app, paramedic.cookie, merged.id, 'Unconscious after a road accident');
  await breakGlass(t.app, paramedic.cookie, stranger.id, 'Collapsed in the waiting room');
  accessId = (await queryOne<{ id: number }>(
    t.db,
    sql`SELECT id::int AS id FROM audit_logs WHERE patient_id = ${merged.id} AND compliance_flags ->> 'type' = 'BREAK_GLASS'`,
  ))!.id;
  join = await joinPatients(t, survivor.id, merged.id);
});
afterAll(async () => {
  await t?.close();
});

const auditIds = async (patientId: number): Promise<number[]> => {
  const res = await get(`/api/audit-logs?patientId=${patientId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: number }[]).map((r) => r.id);
};
const reviewIds = async (patientId: number): Promise<number[]> => {
  const res = await get(`/api/privacy-reviews?status=all&patientId=${patientId}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: { id: number }[] }).items.map((r) => r.id);
};
const portalHistory = async (): Promise<{ ids: number[]; unreviewed: number }> => {
  const cookie = await signInPatient(t, { id: survivor.id, ncNumber: survivor.idNumber, dateOfBirth: DOB });
  const log = await t.app.inject({ method: 'GET', url: '/api/patient-portal/access-log', headers: { cookie } });
  expect(log.statusCode, log.body).toBe(200);
  const summary = await t.app.inject({ method: 'GET', url: '/api/patient-portal/access-summary', headers: { cookie } });
  return {
    ids: (log.json() as { items: { id: number }[] }).items.map((i) => i.id),
    unreviewed: (summary.json() as { unreviewedEmergencyAccesses: number }).unreviewedEmergencyAccesses,
  };
};

describe("a row written for the merged-away record before the join, in the survivor's histories", () => {
  it('the audit screen filtered by the survivor (or the old record) shows it', async () => {
    expect(await auditIds(survivor.id)).toContain(accessId);
    expect(await auditIds(merged.id)).toContain(accessId);
  });

  it("the survivor's portal access history shows it, and counts it as not yet reviewed", async () => {
    const history = await portalHistory();
    expect(history.ids).toContain(accessId);
    expect(history.unreviewed).toBe(1);
  });

  it('the privacy review filtered by the person shows it, and no one else', async () => {
    expect(await reviewIds(survivor.id)).toEqual([accessId]);
    expect(await reviewIds(merged.id)).toEqual([accessId]);
    expect(await reviewIds(stranger.id)).not.toContain(accessId);
  });

  it('refuses a malformed patient filter with 400', async () => {
    for (const bad of ['0', '-1', 'abc', '2147483648', "1' OR '1'='1"]) {
      expect((await get(`/api/privacy-reviews?patientId=${encodeURIComponent(bad)}`)).statusCode).toBe(400);
    }
  });

  it('after undo, the row is the old record’s alone again', async () => {
    await undoJoin(t, join);
    expect(await auditIds(survivor.id)).not.toContain(accessId);
    expect(await auditIds(merged.id)).toContain(accessId);
    expect(await reviewIds(survivor.id)).toEqual([]);
    const history = await portalHistory();
    expect(history.ids).not.toContain(accessId);
    expect(history.unreviewed).toBe(0);
  });
});
