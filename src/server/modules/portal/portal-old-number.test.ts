// Portal sign-in with the NC number of a record joined into another (issue 24 item 6, decision 048): the number names
// the survivor, whose credentials the join kept, so the kept PIN signs in and shows the survivor's record; the date of
// birth of either record is accepted. When the reviewer kept the old record's sign-in, its PIN moved to the survivor.
// After undo the old number names its own record again, each with its own PIN.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinPatients, undoJoin } from '../../test/join-fixtures';
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
    const join = await joinPatients(t, survivor.id, merged.id);
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
    await undoJoin(t, join);
    expect((await login(merged.ncNumber, merged.dateOfBirth)).statusCode).toBe(401);
    expect((await login(survivor.ncNumber, survivor.dateOfBirth)).statusCode).toBe(200);
  });

  it("when the reviewer kept the old record's PIN, it moves to the survivor: both numbers sign in with it; undo gives each its own", async () => {
    const OLD_PIN = '735194';
    const kept = await insertPatient(t.db, { firstName: 'Aina', lastName: 'Haimbili', dateOfBirth: '1988-11-02' });
    const old = await insertPatient(t.db, { firstName: 'Aina', lastName: 'Haimbili', dateOfBirth: '1988-11-02' });
    await activatePatient(t.db, kept, PATIENT_PIN);
    await activatePatient(t.db, old, OLD_PIN);
    const join = await joinPatients(t, kept.id, old.id, { keep: { portal: old.id } });
    for (const ncNumber of [old.ncNumber, kept.ncNumber]) {
      const res = await login(ncNumber, kept.dateOfBirth, OLD_PIN);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ patient: { id: kept.id } });
      expect((await login(ncNumber, kept.dateOfBirth, PATIENT_PIN)).json()).toMatchObject({ code: 'PATIENT_LOGIN_FAILED' });
    }
    await undoJoin(t, join);
    expect((await login(old.ncNumber, old.dateOfBirth, OLD_PIN)).json()).toMatchObject({ patient: { id: old.id } });
    expect((await login(kept.ncNumber, kept.dateOfBirth, PATIENT_PIN)).json()).toMatchObject({ patient: { id: kept.id } });
    expect((await login(kept.ncNumber, kept.dateOfBirth, OLD_PIN)).statusCode).toBe(401);
  });
});
