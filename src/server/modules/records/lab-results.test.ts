// Laboratory results (issue 22 item 2) through the real API and database: each abnormal flag from the value and its
// reference range, text values, the catalogue's rule that a numeric test takes a number, an inverted range refused,
// who entered the result, an edit (PATCH) that corrects a result and its flag, and 400 with nothing changed for bad
// input. The clock is fixed: "today" is 15 June 2025.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LOINC_SYSTEM } from '../../../contracts/codes';
import { testClock } from '../../test/clock';
import type { TestPatient } from '../../test/patient-fixtures';
import { auditCount, doctorWithRecord, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2025-06-15T10:00:00Z'));
let t: TestApp;
let api: ReturnType<typeof recordApi>;
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  const doctor = await doctorWithRecord(t);
  api = recordApi(t, doctor.cookie);
  patient = doctor.patient;
});
afterAll(async () => {
  await t?.close();
});

const results = async (): Promise<number> => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM lab_results`))!.n;
const haemoglobin = { ...SAMPLE_INPUTS['lab-results'], code: '718-7', codeSystem: LOINC_SYSTEM, referenceLow: 12, referenceHigh: 16 };

describe('the abnormal flag, from the value and the reference range', () => {
  it.each([
    [13.2, null],
    [12, null],
    [16, null],
    [11.9, 'L'],
    [16.1, 'H'],
    [7.9, 'LL'], // more than one range width (4) below the low end
    [20.1, 'HH'],
  ] as const)('%s g/dL in 12-16 is flagged %s', async (value, flag) => {
    const res = await api.add('lab-results', patient.id, { ...haemoglobin, value, collectedDate: '2025-06-01' }, ['DUPLICATE_ENTRY']);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      value,
      abnormalFlag: flag,
      code: '718-7',
      codeSystem: LOINC_SYSTEM,
      codeDisplay: 'Hemoglobin [Mass/volume] in Blood',
    });
  });

  it('flags against one end when only one is known (HH beyond twice the high end, LL below half the low end)', async () => {
    const onlyHigh = { ...SAMPLE_INPUTS['lab-results'], name: 'Viral load', unit: '{copies}/mL', referenceLow: null };
    expect((await api.add('lab-results', patient.id, { ...onlyHigh, referenceHigh: 1000, value: 1500 })).json().abnormalFlag).toBe('H');
    expect((await api.add('lab-results', patient.id, { ...onlyHigh, referenceHigh: 1000, value: 2500 })).json().abnormalFlag).toBe('HH');
    const onlyLow = { ...SAMPLE_INPUTS['lab-results'], name: 'CD4 count', referenceHigh: null, referenceLow: 500 };
    expect((await api.add('lab-results', patient.id, { ...onlyLow, value: 300 })).json().abnormalFlag).toBe('L');
    expect((await api.add('lab-results', patient.id, { ...onlyLow, value: 200 })).json().abnormalFlag).toBe('LL');
  });

  it('has no flag for a text value or a result without a range', async () => {
    const hiv = {
      name: 'HIV rapid test',
      code: '68961-2',
      codeSystem: LOINC_SYSTEM,
      value: 'Negative',
      collectedDate: '2025-06-10',
      status: 'final',
      facility: 'Okuryangava Clinic',
    };
    const res = await api.add('lab-results', patient.id, hiv);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ value: 'Negative', unit: null, referenceLow: null, referenceHigh: null, abnormalFlag: null });
    const noRange = await api.add('lab-results', patient.id, {
      ...SAMPLE_INPUTS['lab-results'],
      referenceLow: null,
      referenceHigh: null,
      value: 99,
    });
    expect(noRange.json().abnormalFlag).toBeNull();
  });

  it('names who entered the result and when (the server clock), and lists results newest collected first', async () => {
    const res = await api.add('lab-results', patient.id, { ...SAMPLE_INPUTS['lab-results'], collectedDate: '2025-06-14' });
    expect(res.json()).toMatchObject({ enteredBy: 'Test Role3', enteredAt: '2025-06-15T10:00:00.000Z', patientId: patient.id });
    const list = (await api.list('lab-results', patient.id)).json() as { collectedDate: string }[];
    expect(list[0]!.collectedDate).toBe('2025-06-14');
    expect(list.map((r) => r.collectedDate)).toEqual([...list.map((r) => r.collectedDate)].sort().reverse());
  });
});

describe("bad input: a clear 400 in the user's language and nothing changed", () => {
  async function refused(payload: Record<string, unknown>, issue: { path: string; message: string }): Promise<void> {
    const before = [await results(), await auditCount(t)];
    const res = await api.add('lab-results', patient.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(res.json().issues).toContainEqual(issue);
    expect([await results(), await auditCount(t)]).toEqual(before);
  }

  it('refuses text where the catalogue says the test reports a number', async () => {
    await refused({ ...haemoglobin, value: 'high' }, { path: 'value', message: 'validation:labValueNumberRequired' });
  });

  it('refuses a range whose low end is above its high end', async () => {
    await refused(
      { ...haemoglobin, referenceLow: 16, referenceHigh: 12 },
      { path: 'referenceLow', message: 'validation:referenceRangeInverted' },
    );
  });

  it('refuses a missing or blank value, a value that is neither number nor text, and an absurd number', async () => {
    const { value: _v, ...noValue } = SAMPLE_INPUTS['lab-results'];
    await refused(noValue, { path: 'value', message: 'validation:labValueRequired' });
    await refused({ ...SAMPLE_INPUTS['lab-results'], value: '  ' }, { path: 'value', message: 'validation:labValueRequired' });
    await refused({ ...SAMPLE_INPUTS['lab-results'], value: { n: 1 } }, { path: 'value', message: 'validation:labValueInvalid' });
    await refused({ ...SAMPLE_INPUTS['lab-results'], value: 1e12 }, { path: 'value', message: 'validation:labValueInvalid' });
  });

  it('refuses an unknown status, a unit with spaces, a future collection date and a non-numeric range end', async () => {
    await refused({ ...SAMPLE_INPUTS['lab-results'], status: 'amended' }, { path: 'status', message: 'validation:invalidChoice' });
    await refused({ ...SAMPLE_INPUTS['lab-results'], unit: 'g per dL' }, { path: 'unit', message: 'validation:unitInvalid' });
    await refused(
      { ...SAMPLE_INPUTS['lab-results'], collectedDate: '2025-06-16' },
      { path: 'collectedDate', message: 'validation:dateFuture' },
    );
    await refused(
      { ...SAMPLE_INPUTS['lab-results'], referenceHigh: '16' },
      { path: 'referenceHigh', message: 'validation:referenceInvalid' },
    );
  });
});

describe('PATCH /api/lab-results/{id}: correcting a result', () => {
  it('replaces the fields sent, recomputes the flag, keeps who entered it, and audits UPDATE with the changed fields', async () => {
    const created = (await api.add('lab-results', patient.id, { ...SAMPLE_INPUTS['lab-results'], collectedDate: '2025-05-01' })).json();
    expect(created.abnormalFlag).toBeNull();
    const res = await api.edit('lab-results', created.id, { value: 17.5, status: 'corrected' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...created,
      value: 17.5,
      status: 'corrected',
      abnormalFlag: 'H',
      version: 2,
      updatedAt: expect.any(String),
    });
    const audit = await queryOne<{ action: string; resource_type: string; old_values: unknown; new_values: unknown }>(
      t.db,
      sql`SELECT action, resource_type, old_values, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      action: 'UPDATE',
      resource_type: 'LAB_RESULT',
      old_values: null,
      new_values: { version: 2, changed: ['abnormalFlag', 'status', 'value'] },
    });
  });

  it('checks the edited result whole: an edit that inverts the range is a 400 and changes nothing', async () => {
    const created = (await api.add('lab-results', patient.id, { ...SAMPLE_INPUTS['lab-results'], collectedDate: '2025-05-02' })).json();
    const before = [await auditCount(t)];
    const res = await api.edit('lab-results', created.id, { referenceLow: 20 });
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({ path: 'referenceLow', message: 'validation:referenceRangeInverted' });
    expect([await auditCount(t)]).toEqual(before);
    expect((await api.list('lab-results', patient.id)).json().find((r: { id: number }) => r.id === created.id)).toEqual(created);
  });

  it('refuses unknown fields, an unknown id (404) and a result of a patient without a grant (403)', async () => {
    const created = (await api.add('lab-results', patient.id, { ...SAMPLE_INPUTS['lab-results'], collectedDate: '2025-05-03' })).json();
    expect((await api.edit('lab-results', created.id, { patientId: 99 })).statusCode).toBe(400);
    expect((await api.edit('lab-results', 2_000_000_000, { value: 1 })).statusCode).toBe(404);
    const nurse = await signInAs(t, 4); // no grant for this patient
    const before = await auditCount(t);
    expect((await recordApi(t, nurse.cookie).edit('lab-results', created.id, { value: 1 })).statusCode).toBe(403);
    expect(await auditCount(t)).toBe(before);
  });
});
