// A portal session does not outlive the record it was opened on (decision 048): joining two records ends the sessions
// open on the merged-away record (the patient signs in again, with either number, and sees the survivor), and undoing
// the join ends the sessions open on the survivor (one may be the other person's, signed in with the old number).
// Another patient's session is untouched both times.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinPatients, undoJoin } from '../../test/join-fixtures';
import { createPatient } from '../../test/patient-fixtures';
import { signInPatient } from '../../test/portal-fixtures';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
type Person = { id: number; ncNumber: string; dateOfBirth: string };
const person = async (): Promise<Person> => {
  const p = await createPatient(t.db);
  return { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth };
};
const me = async (cookie: string) => t.app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie } });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('portal sessions when records are joined and the join undone', () => {
  it('the join ends the merged record’s session; signing in again with the old number opens the survivor; undo ends that', async () => {
    const [survivor, merged, bystander] = [await person(), await person(), await person()];
    const mergedCookie = await signInPatient(t, merged);
    const survivorCookie = await signInPatient(t, survivor);
    const bystanderCookie = await signInPatient(t, bystander);
    expect((await me(mergedCookie)).statusCode).toBe(200);

    const join = await joinPatients(t, survivor.id, merged.id, { keep: { portal: merged.id } });
    expect((await me(mergedCookie)).statusCode).toBe(401);
    expect((await me(survivorCookie)).statusCode).toBe(200);
    expect((await me(bystanderCookie)).statusCode).toBe(200);

    const again = await signInPatient(t, merged);
    const seen = await me(again);
    expect(seen.statusCode, seen.body).toBe(200);
    expect(seen.json()).toMatchObject({ patient: { id: survivor.id } });

    await undoJoin(t, join);
    expect((await me(again)).statusCode).toBe(401);
    expect((await me(survivorCookie)).statusCode).toBe(401);
    expect((await me(bystanderCookie)).statusCode).toBe(200);
    const back = await signInPatient(t, merged);
    expect((await me(back)).json()).toMatchObject({ patient: { id: merged.id } });
  });
});
