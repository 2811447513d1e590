// Portal sign-in with the NC number of a record joined into another (issue 24 item 6, decision 048): the number names
// the survivor, whose credentials the join kept, so the kept PIN signs in and shows the survivor's record; the date of
// birth of either record is accepted. After undo the old number names its own record again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinPatients, undoJoin } from '../../test/joined-records-fixtures';
import { activatePatient, insertPatient, PATIENT_PIN, type SeededPatient } from '../../test/portal-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let survivor: SeededPatient;
let merged: SeededPatient;
let ip = 0;

beforeAll(async () => {
  t = await createTestApp();
  survivor = await insertPatient(t.db, { firstName: 'Selma', lastName: 'Iipinge', dateOfBirth: '1991-03-07' });
  // The clinic that registered the second record wrote the day and month the other way round.
  merged = await insertPatient(t.db, { firstName: 'Selma', lastName: 'Iipinge', dateOfBirth: '1991-07-03' });
  await activatePatient(t.db, survivor, PATIENT_PIN);
});
afterAll(async () => {
  await t?.close();
});

const login = (ncNumber: string, dateOfBirth: string, pin = PATIENT_PIN) =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/patient-login',
    payload: { ncNumber, dateOfBirth, pin },
    remoteAddress: `10.9.0.${++ip}`,
  });
const cookieOf = (res: Awaited<ReturnType<typeof login>>) => `nhr_sid=${res.cookies.find((c) => c.name === 'nhr_sid')!.value}`;

describe('the joined-away NC number at the portal', () => {
  it('before the join, the unactivated old record cannot sign in with the PIN', async () => {
    expect((await login(merged.ncNumber, merged.dateOfBirth)).statusCode).toBe(401);
  });

  it("after the join, the old number with the kept PIN signs in to the survivor and shows the survivor's record", async () => {
    const join = await joinPatients(t.db, survivor.id, merged.id);
    for (const dateOfBirth of [merged.dateOfBirth, survivor.dateOfBirth]) {
      const res = await login(merged.ncNumber, dateOfBirth);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ patient: { id: survivor.id } });
      const me = await t.app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie: cookieOf(res) } });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toMatchObject({ patient: { id: survivor.id, idNumber: survivor.ncNumber } });
    }
    // A wrong PIN or a date of birth of neither record is still the one refusal.
    expect((await login(merged.ncNumber, merged.dateOfBirth, '000000')).json()).toMatchObject({ code: 'PATIENT_LOGIN_FAILED' });
    expect((await login(merged.ncNumber, '1991-01-01')).json()).toMatchObject({ code: 'PATIENT_LOGIN_FAILED' });
    await undoJoin(t.db, join);
    expect((await login(merged.ncNumber, merged.dateOfBirth)).statusCode).toBe(401);
    expect((await login(survivor.ncNumber, survivor.dateOfBirth)).statusCode).toBe(200);
  });
});
