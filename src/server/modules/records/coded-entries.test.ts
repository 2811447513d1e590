// Coded entries (issue 22 item 3) through the real API: each coded kind added coded (the catalogue's display stored
// beside the code) and uncoded (free text, as before); an unknown code, a code from another system, a code without
// its system: each a clear 400 naming the field, nothing stored and nothing audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ALLERGY_SUBSTANCE_SYSTEM, ATC_SYSTEM, CVX_SYSTEM, ICD10_SYSTEM, LOINC_SYSTEM } from '../../../contracts/codes';
import { CODED_KINDS, kindContract, type RecordKind } from '../../../contracts/kinds';
import type { TestPatient } from '../../test/patient-fixtures';
import { auditCount, doctorWithRecord, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';
import { SERVER_KINDS } from './kinds';
import { getTableName } from 'drizzle-orm';

let t: TestApp;
let api: ReturnType<typeof recordApi>;
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp();
  const doctor = await doctorWithRecord(t);
  api = recordApi(t, doctor.cookie);
  patient = doctor.patient;
});
afterAll(async () => {
  await t?.close();
});

/** A code of each coded kind's catalogue, its display, and a code of another system. */
const CODES: Partial<Record<RecordKind, { code: string; codeSystem: string; display: string; text: string; foreign: string }>> = {
  diagnoses: {
    code: 'E11.9',
    codeSystem: ICD10_SYSTEM,
    display: 'Type 2 diabetes mellitus without complications',
    text: 'Type 2 diabetes',
    foreign: LOINC_SYSTEM,
  },
  allergies: {
    code: 'J01C',
    codeSystem: ATC_SYSTEM,
    display: 'Penicillins (beta-lactam antibacterials, penicillins)',
    text: 'Penicillin',
    foreign: ICD10_SYSTEM,
  },
  // Not amoxicillin: the allergies sample is penicillin on the same patient, which the medicine checks (decision 043) refuse.
  medications: { code: 'N02BE01', codeSystem: ATC_SYSTEM, display: 'paracetamol', text: 'Panado', foreign: CVX_SYSTEM },
  vaccines: { code: '04', codeSystem: CVX_SYSTEM, display: 'Measles and rubella vaccine, live', text: 'MR1', foreign: ATC_SYSTEM },
  'lab-results': {
    code: '4548-4',
    codeSystem: LOINC_SYSTEM,
    display: 'Hemoglobin A1c/Hemoglobin.total in Blood',
    text: 'HbA1c',
    foreign: ICD10_SYSTEM,
  },
};

const rows = async (kind: RecordKind): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(getTableName(SERVER_KINDS[kind].table))}`))!.n;

it('covers every coded kind', () => {
  expect(Object.keys(CODES).sort()).toEqual([...CODED_KINDS].sort());
});

describe.each(CODED_KINDS)('%s', (kind) => {
  const c = CODES[kind]!;
  const field = kindContract(kind).coded!.field;
  const coded = () => ({ ...SAMPLE_INPUTS[kind], [field]: c.text, code: c.code, codeSystem: c.codeSystem });

  it('stores a coded entry with the catalogue display beside what the clinician wrote', async () => {
    const res = await api.add(kind, patient.id, coded(), ['DUPLICATE_ENTRY']);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ [field]: c.text, code: c.code, codeSystem: c.codeSystem, codeDisplay: c.display });
  });

  it('stores free text as uncoded', async () => {
    const res = await api.add(kind, patient.id, { ...SAMPLE_INPUTS[kind], [field]: 'Something the catalogue lacks' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ code: null, codeSystem: null, codeDisplay: null });
  });

  async function refused(payload: Record<string, unknown>, issue: { path: string; message: string }): Promise<void> {
    const before = [await rows(kind), await auditCount(t)];
    const res = await api.add(kind, patient.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(res.json().issues).toContainEqual(issue);
    expect([await rows(kind), await auditCount(t)]).toEqual(before);
  }

  it('refuses an unknown code', async () => {
    await refused({ ...coded(), code: 'Z99X9' }, { path: 'code', message: 'validation:codeUnknown' });
  });

  it('refuses a code from another system', async () => {
    await refused({ ...coded(), codeSystem: c.foreign }, { path: 'codeSystem', message: 'validation:codeSystemUnknown' });
  });

  it('refuses a code without its system, and a system without a code', async () => {
    await refused({ ...coded(), codeSystem: null }, { path: 'code', message: 'validation:codePaired' });
    await refused({ ...coded(), code: '' }, { path: 'code', message: 'validation:codePaired' });
  });

  it('refuses a malformed code', async () => {
    await refused({ ...coded(), code: 'E11 9; DROP' }, { path: 'code', message: 'validation:codeInvalid' });
  });
});

it('takes an allergy substance of our own system, and an edit can code an uncoded entry', async () => {
  const peanut = await api.add('allergies', patient.id, {
    ...SAMPLE_INPUTS.allergies,
    allergen: 'Peanuts',
    code: 'food-peanut',
    codeSystem: ALLERGY_SUBSTANCE_SYSTEM,
  });
  expect(peanut.statusCode, peanut.body).toBe(201);
  expect(peanut.json()).toMatchObject({ codeDisplay: 'Peanut' });
  const free = (await api.add('medications', patient.id, { ...SAMPLE_INPUTS.medications, name: 'Metformin 500' })).json();
  const edited = await api.edit('medications', free.id, { code: 'A10BA02', codeSystem: ATC_SYSTEM });
  expect(edited.statusCode, edited.body).toBe(200);
  expect(edited.json()).toMatchObject({ name: 'Metformin 500', code: 'A10BA02', codeDisplay: 'metformin' });
});
