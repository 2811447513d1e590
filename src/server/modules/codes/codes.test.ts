// GET /api/codes through the real app (issue 22 item 3): each kind finds what a clinician types, case and accents do
// not matter, the limit holds, only signed-in staff with records.read may ask, and bad input is a 400 that changes
// nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALLERGY_SUBSTANCE_SYSTEM,
  ATC_SYSTEM,
  CODES_LIMIT_DEFAULT,
  CODES_LIMIT_MAX,
  CVX_SYSTEM,
  ICD10_SYSTEM,
  LOINC_SYSTEM,
  type CodesAnswer,
} from '../../../contracts/codes';
import { ROLE_IDS } from '../../../contracts/constants';
import { databaseFingerprint } from '../../test/db-fingerprint';
import { insertPatient, signInPatient } from '../../test/portal-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { checkCode, lookupCode } from './codes.service';

let t: TestApp;
let doctor: string;

beforeAll(async () => {
  t = await createTestApp();
  doctor = (await signInAs(t, ROLE_IDS.doctor)).cookie;
});
afterAll(async () => {
  await t?.close();
});

async function codes(query: string, cookie = doctor): Promise<{ status: number; body: CodesAnswer }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/codes?${query}`, headers: { cookie } });
  return { status: res.statusCode, body: res.json<CodesAnswer>() };
}

const codesOf = (answer: CodesAnswer): string[] => answer.results.map((r) => r.code);

describe('GET /api/codes finds each kind', () => {
  it('medications: "amox" → amoxicillin J01CA04 first', async () => {
    const { status, body } = await codes('kind=medications&q=amox');
    expect(status).toBe(200);
    expect(body).toMatchObject({ kind: 'medications', query: 'amox' });
    expect(body.results[0]).toMatchObject({ code: 'J01CA04', codeSystem: ATC_SYSTEM, display: 'amoxicillin' });
    expect(codesOf(body)).toContain('J01CR02');
  });

  it('medications: a synonym finds its medicine (acetaminophen → paracetamol)', async () => {
    const { body } = await codes('kind=medications&q=acetamin');
    expect(body.results[0]).toMatchObject({ code: 'N02BE01', display: 'paracetamol', synonyms: expect.arrayContaining(['acetaminophen']) });
  });

  it.each(['mr', 'MR', 'measles'])('vaccines: "%s" → the measles-rubella vaccine', async (q) => {
    const { body } = await codes(`kind=vaccines&q=${q}`);
    const mr = body.results.find((r) => r.code === '04');
    expect(mr).toMatchObject({ codeSystem: CVX_SYSTEM, atc: 'J07BD53' });
    if (q.toLowerCase() === 'mr') expect(body.results[0]?.code).toBe('04');
  });

  it('vaccines: the short name clinics use ("Penta") finds the pentavalent vaccine', async () => {
    const { body } = await codes('kind=vaccines&q=penta');
    expect(body.results[0]).toMatchObject({ code: '198', atc: 'J07CA11' });
  });

  it('lab-results: "hba" → HbA1c 4548-4 with its unit, value type and reference range', async () => {
    const { body } = await codes('kind=lab-results&q=hba');
    expect(body.results[0]).toMatchObject({
      code: '4548-4',
      codeSystem: LOINC_SYSTEM,
      shortName: 'HbA1c',
      unit: '%',
      valueType: 'numeric',
      referenceLow: 4,
      referenceHigh: 5.6,
    });
  });

  it('lab-results: a LOINC code or its prefix finds the test', async () => {
    expect(codesOf((await codes('kind=lab-results&q=4548-4')).body)[0]).toBe('4548-4');
    expect(codesOf((await codes('kind=lab-results&q=718')).body)).toContain('718-7');
  });

  it('diagnoses: "E11" → type 2 diabetes mellitus first, then its subcategories', async () => {
    const { body } = await codes('kind=diagnoses&q=E11');
    expect(body.results[0]).toMatchObject({ code: 'E11', codeSystem: ICD10_SYSTEM, display: 'Type 2 diabetes mellitus' });
    expect(body.results.slice(1).every((r) => r.code.startsWith('E11.'))).toBe(true);
  });

  it('diagnoses: the common ones come first ("diab" → type 2 diabetes, "hyperten" → essential hypertension)', async () => {
    expect(codesOf((await codes('kind=diagnoses&q=diab')).body).slice(0, 3)).toContain('E11');
    expect(codesOf((await codes('kind=diagnoses&q=hyperten')).body)[0]).toBe('I10');
  });

  it('diagnoses: words in any case and with or without the dot', async () => {
    expect(codesOf((await codes('kind=diagnoses&q=e11.9')).body)[0]).toBe('E11.9');
    expect(codesOf((await codes('kind=diagnoses&q=E119')).body)[0]).toBe('E11.9');
    expect(codesOf((await codes('kind=diagnoses&q=PNEUMONIA%20UNSPEC')).body)).toContain('J18.9');
    expect(codesOf((await codes('kind=diagnoses&q=type%202%20diab')).body)).toContain('E11');
  });

  it('allergies: "penic" → the penicillins class (ATC J01C); food and environment come from our own system', async () => {
    const { body } = await codes('kind=allergies&q=penic');
    expect(body.results[0]).toMatchObject({ code: 'J01C', codeSystem: ATC_SYSTEM, category: 'medication' });
    const peanut = (await codes('kind=allergies&q=peanut')).body.results[0];
    expect(peanut).toMatchObject({ code: 'food-peanut', codeSystem: ALLERGY_SUBSTANCE_SYSTEM, category: 'food' });
  });

  it('accents and case do not matter', async () => {
    const plain = await codes('kind=medications&q=nevirapine');
    const accented = await codes(`kind=medications&q=${encodeURIComponent('NÉVIRAPINE')}`);
    expect(accented.body.results).toEqual(plain.body.results);
    expect(plain.body.results[0]?.code).toBe('J05AG01');
  });

  it('answers at most `limit` results: 10 by default, up to 25', async () => {
    expect((await codes('kind=diagnoses&q=malig')).body.results).toHaveLength(CODES_LIMIT_DEFAULT);
    expect((await codes(`kind=diagnoses&q=malig&limit=${CODES_LIMIT_MAX}`)).body.results).toHaveLength(CODES_LIMIT_MAX);
    expect((await codes('kind=diagnoses&q=malig&limit=3')).body.results).toHaveLength(3);
  });

  it('a one-character query lists codes from its start; a query that matches nothing is an empty list', async () => {
    const one = (await codes('kind=diagnoses&q=J')).body.results;
    expect(one.length).toBe(CODES_LIMIT_DEFAULT);
    expect(one.every((r) => r.code.startsWith('J'))).toBe(true);
    expect((await codes('kind=medications&q=zzzqx')).body.results).toEqual([]);
  });
});

describe('who may look codes up', () => {
  it('signed out: 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/codes?kind=medications&q=amox' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('a patient session: 401', async () => {
    const cookie = await signInPatient(t, await insertPatient(t.db));
    const { status, body } = await codes('kind=medications&q=amox', cookie);
    expect(status).toBe(401);
    expect(body).toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it.each([
    ['receptionist', ROLE_IDS.receptionist],
    ['auditor', ROLE_IDS.auditor],
    ['admin', ROLE_IDS.admin],
  ])('a %s (no records.read): 403', async (_name, roleId) => {
    const { cookie } = await signInAs(t, roleId);
    const { status, body } = await codes('kind=medications&q=amox', cookie);
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: 'PERMISSION_REQUIRED' });
  });

  it.each([
    ['nurse', ROLE_IDS.nurse],
    ['basic life support', ROLE_IDS.basicLifeSupport],
  ])('a %s (records.read): 200', async (_name, roleId) => {
    const { cookie } = await signInAs(t, roleId);
    expect((await codes('kind=vaccines&q=bcg', cookie)).status).toBe(200);
  });
});

describe('bad input', () => {
  it.each([
    ['an unknown kind', 'kind=procedures&q=amox', 'kind', 'validation:invalidChoice'],
    ['no kind', 'q=amox', 'kind', 'validation:invalidChoice'],
    ['no query', 'kind=medications', 'q', 'validation:required'],
    ['a blank query', 'kind=medications&q=%20%20', 'q', 'validation:required'],
    ['a query over 50 characters', `kind=medications&q=${'a'.repeat(51)}`, 'q', 'validation:tooLong'],
    ['a NUL in the query', 'kind=medications&q=am%00ox', 'q', 'validation:invalidCharacters'],
    ['a limit of 0', 'kind=medications&q=amox&limit=0', 'limit', 'validation:invalidNumber'],
    ['a limit over 25', 'kind=medications&q=amox&limit=26', 'limit', 'validation:invalidNumber'],
    ['a limit that is no number', 'kind=medications&q=amox&limit=ten', 'limit', 'validation:invalidNumber'],
  ])('%s: 400 with the field and its message key, nothing changed', async (_name, query, path, message) => {
    const before = await databaseFingerprint(t.db);
    const res = await t.app.inject({ method: 'GET', url: `/api/codes?${query}`, headers: { cookie: doctor } });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ code: string; issues?: { path: string; message: string }[] }>();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.issues).toContainEqual(expect.objectContaining({ path: expect.stringContaining(path), message }));
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('an unknown query parameter: 400', async () => {
    expect((await codes('kind=medications&q=amox&sort=code')).status).toBe(400);
  });
});

describe('lookupCode and checkCode (what coded inputs are validated with)', () => {
  it('finds an entry by exactly its system and code', () => {
    expect(lookupCode('medications', ATC_SYSTEM, 'J01CA04')).toMatchObject({ display: 'amoxicillin' });
    expect(lookupCode('diagnoses', ICD10_SYSTEM, 'E11.9')).toMatchObject({ display: 'Type 2 diabetes mellitus without complications' });
    expect(lookupCode('medications', ATC_SYSTEM, 'J01XX99')).toBeNull();
    expect(lookupCode('medications', LOINC_SYSTEM, 'J01CA04')).toBeNull();
  });

  it('says which refusal it is', () => {
    expect(checkCode('vaccines', { code: '04', codeSystem: CVX_SYSTEM })).toMatchObject({ ok: true, entry: { atc: 'J07BD53' } });
    expect(checkCode('vaccines', { code: '04', codeSystem: ATC_SYSTEM })).toEqual({ ok: false, reason: 'unknown-system' });
    expect(checkCode('vaccines', { code: '9999', codeSystem: CVX_SYSTEM })).toEqual({ ok: false, reason: 'unknown-code' });
    expect(checkCode('allergies', { code: 'food-egg', codeSystem: ALLERGY_SUBSTANCE_SYSTEM })).toMatchObject({ ok: true });
    expect(checkCode('allergies', { code: 'J01C', codeSystem: ATC_SYSTEM })).toMatchObject({ ok: true });
    expect(checkCode('lab-results', { code: '4548-4', codeSystem: ICD10_SYSTEM })).toEqual({ ok: false, reason: 'unknown-system' });
  });
});
