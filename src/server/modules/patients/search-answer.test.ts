// The exact searches' answer is JSON built by their statement and sent as it is (issue 29, http/json-text.ts): no
// zod encode stands between it and the client, so this holds it to the response schema. Every object has exactly
// the contract's keys (a strict parse changes nothing), `joinedFrom` only when the record was found through a joined
// number, a missing date of birth as null, and text the database holds (quotes, backslashes, letters beyond ASCII,
// a line break) comes back as it was stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import { ROLE_IDS } from '../../../contracts/constants';
import { patientSearchResult } from '../../../contracts/patients';
import { joinPatients } from '../../test/join-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const strictAnswer = z.array(patientSearchResult.strict());
const ODD_TEXT = { firstName: 'Ndapewa "Penny"', lastName: 'ǃnaruseb\\Nāmbahu', address: 'Erf 12, ǂKhoadi St\nKeetmanshoop ✓' };

let t: TestApp;
let cookie: string;
let odd: TestPatient;
let noBirthDate: TestPatient;
let survivor: TestPatient;
let merged: TestPatient;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signInAs(t, ROLE_IDS.doctor)).cookie;
  odd = await createPatient(t.db, { firstName: ODD_TEXT.firstName, lastName: ODD_TEXT.lastName, dateOfBirth: '1990-01-31' });
  await t.db.execute(sql`UPDATE patients SET address = ${ODD_TEXT.address} WHERE id = ${odd.id}`);
  noBirthDate = await createPatient(t.db);
  await t.db.execute(sql`UPDATE patients SET date_of_birth = NULL WHERE id = ${noBirthDate.id}`);
  survivor = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Amukoto', dateOfBirth: '1984-07-21' });
  merged = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Amukoto', dateOfBirth: '1984-07-21' });
  await joinPatients(t, survivor.id, merged.id);
});
afterAll(async () => {
  await t?.close();
});

/** The answer of a search: its content type, and its objects after checking that a strict parse changes nothing. */
async function answerOf(body: object): Promise<Record<string, unknown>[]> {
  const res = await t.app.inject({ method: 'POST', url: '/api/patients/search', headers: { cookie }, payload: body });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const answer = JSON.parse(res.body) as Record<string, unknown>[];
  expect(strictAnswer.parse(answer)).toEqual(answer);
  return answer;
}

describe('exact search answers (JSON built by the statement)', () => {
  it('name + date of birth: the contract keys in order, text as stored', async () => {
    const [found, ...rest] = await answerOf({ method: 'name-dob', lastName: ODD_TEXT.lastName, dateOfBirth: '1990-01-31' });
    expect(rest).toEqual([]);
    expect(found).toEqual({
      id: odd.id,
      firstName: ODD_TEXT.firstName,
      lastName: ODD_TEXT.lastName,
      dateOfBirth: '1990-01-31',
      idNumber: odd.idNumber,
      sex: 'Female',
      address: ODD_TEXT.address,
    });
    expect(Object.keys(found!)).toEqual(Object.keys(patientSearchResult.shape).filter((k) => k in found!));
  });

  it('NC number: a missing date of birth is null, and no joinedFrom for the number of the record itself', async () => {
    const [found] = await answerOf({ method: 'id-number', idNumber: noBirthDate.idNumber });
    expect(found).toMatchObject({ id: noBirthDate.id, dateOfBirth: null });
    expect(found).not.toHaveProperty('joinedFrom');
  });

  it('NC number of a joined record: the survivor, with joinedFrom naming the number searched', async () => {
    expect(await answerOf({ method: 'id-number', idNumber: merged.idNumber })).toEqual([
      expect.objectContaining({ id: survivor.id, idNumber: survivor.idNumber, joinedFrom: { idNumber: merged.idNumber } }),
    ]);
  });

  it('nothing found: an empty array', async () => {
    expect(await answerOf({ method: 'id-number', idNumber: '99999999999' })).toEqual([]);
    expect(await answerOf({ method: 'name-dob', lastName: 'Nobody', dateOfBirth: '1901-01-01' })).toEqual([]);
  });
});
