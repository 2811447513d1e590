// Validation of the add routes (SPEC §5): the SPEC message key for each missing required field, and 400 with
// nothing stored for bad input (wrong types, 10,000-character strings, future or ancient dates, unknown fields,
// values outside the SPEC ranges). The clock is fixed: "today" is 15 June 2025 in Windhoek.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { getTableName } from 'drizzle-orm';
import { RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import { RECORD_TABLES } from './kinds';
import { testClock } from '../../test/clock';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { REQUIRED_FIELDS, SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs } from '../../test/staff';
import { queryOne } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2025-06-15T10:00:00Z'));
let t: TestApp;
let cookie: string;
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  cookie = (await signInAs(t, 4)).cookie;
  patient = await createPatient(t.db);
  await t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/access`, headers: { cookie }, payload: { consent: true } });
});
afterAll(async () => {
  await t?.close();
});

const add = (kind: RecordKind, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/${kind}`, headers: { cookie }, payload: payload as object });
const stored = async (): Promise<number[]> => {
  const counts: number[] = [];
  for (const table of [...RECORD_TABLES.map(getTableName), 'audit_logs']) {
    counts.push((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))!.n);
  }
  return counts;
};
const issuesOf = (body: { issues?: { path: string; message: string }[] }) => body.issues ?? [];

/** Posts the sample with `change` applied; expects 400 with that issue, and nothing stored or audited. */
async function expectRefused(kind: RecordKind, change: Record<string, unknown>, issue?: { path: string; message: string }): Promise<void> {
  const before = await stored();
  const res = await add(kind, { ...SAMPLE_INPUTS[kind], ...change });
  expect(res.statusCode, JSON.stringify(change).slice(0, 200)).toBe(400);
  expect(res.json().code).toBe('VALIDATION_FAILED');
  if (issue) expect(issuesOf(res.json())).toContainEqual(issue);
  expect(await stored()).toEqual(before);
}

const withoutField = (kind: RecordKind, field: string): Record<string, unknown> => {
  const { [field]: _dropped, ...rest } = SAMPLE_INPUTS[kind];
  return rest;
};

/** The kinds with required fields (vital signs need any one measure instead). */
const WITH_REQUIRED = RECORD_KINDS.filter((k) => Object.keys(REQUIRED_FIELDS[k]).length > 0);

describe.each(WITH_REQUIRED)('POST /api/patients/{id}/%s: required fields (SPEC §5)', (kind) => {
  it.each(Object.entries(REQUIRED_FIELDS[kind]))('missing %s gives %s', async (field, message) => {
    const before = await stored();
    const res = await add(kind, withoutField(kind, field));
    expect(res.statusCode).toBe(400);
    expect(issuesOf(res.json())).toContainEqual({ path: field, message });
    expect(await stored()).toEqual(before);
  });

  it.each(Object.entries(REQUIRED_FIELDS[kind]))('blank %s gives %s', async (field, message) => {
    await expectRefused(kind, { [field]: '   ' }, { path: field, message });
  });

  it('accepts the sample as it is (the tests above change only one field)', async () => {
    expect((await add(kind, SAMPLE_INPUTS[kind])).statusCode).toBe(201);
  });

  it('refuses unknown fields, a patientId or id in the body included', async () => {
    await expectRefused(kind, { patientId: 1 });
    await expectRefused(kind, { id: 5 });
    await expectRefused(kind, { notes: 'x' });
  });

  it.each(Object.keys(REQUIRED_FIELDS[kind]))('refuses %s of the wrong type', async (field) => {
    if (typeof SAMPLE_INPUTS[kind][field] !== 'number') await expectRefused(kind, { [field]: 12345 }); // a lab value may be a number
    await expectRefused(kind, { [field]: ['a'] });
    await expectRefused(kind, { [field]: null });
  });

  it('refuses 10,000-character strings in every text field', async () => {
    for (const [field, value] of Object.entries(SAMPLE_INPUTS[kind])) {
      if (typeof value !== 'string') continue;
      await expectRefused(kind, { [field]: 'a'.repeat(10_000) });
    }
  });
});

describe('dates (within the last 100 years; not in the future where they record the past)', () => {
  it.each([
    ['diagnoses', 'diagnosedDate'],
    ['diagnoses', 'resolvedDate'],
    ['allergies', 'reportedDate'],
    ['medications', 'prescribedDate'],
    ['medications', 'discontinuedDate'],
    ['vaccines', 'date'],
  ] as const)('%s.%s: today is accepted, tomorrow refused', async (kind, field) => {
    await expectRefused(kind, { [field]: '2025-06-16' }, { path: field, message: 'validation:dateFuture' });
    expect((await add(kind, { ...SAMPLE_INPUTS[kind], [field]: '2025-06-15' })).statusCode).toBe(201);
  });

  it.each([
    ['appointments', 'date'],
    ['medications', 'nextReview'],
    ['vaccines', 'nextDue'],
  ] as const)('%s.%s may be in the future', async (kind, field) => {
    expect((await add(kind, { ...SAMPLE_INPUTS[kind], [field]: '2025-09-01' })).statusCode).toBe(201);
  });

  it('refuses dates more than 100 years ago, accepts exactly 100 years ago', async () => {
    await expectRefused('diagnoses', { diagnosedDate: '1925-06-14' }, { path: 'diagnosedDate', message: 'validation:dateTooOld' });
    await expectRefused('appointments', { date: '1925-06-14' }, { path: 'date', message: 'validation:dateTooOld' });
    await expectRefused('appointments', { date: '2125-06-16' }, { path: 'date', message: 'validation:dateTooFar' });
    expect((await add('diagnoses', { ...SAMPLE_INPUTS.diagnoses, diagnosedDate: '1925-06-15', resolvedDate: null })).statusCode).toBe(201);
  });

  it.each(['2024-02-30', '2024-13-01', '15/06/2025', '2025-6-1', 'yesterday', '2025-06-10T00:00:00Z'])(
    'refuses %s as a date',
    async (value) => {
      await expectRefused('allergies', { reportedDate: value }, { path: 'reportedDate', message: 'validation:dateInvalid' });
    },
  );

  it('refuses an end date before the start date', async () => {
    await expectRefused(
      'diagnoses',
      { resolvedDate: '2024-05-01' },
      { path: 'resolvedDate', message: 'validation:resolvedBeforeDiagnosed' },
    );
    await expectRefused(
      'medications',
      { discontinuedDate: '2024-05-01' },
      { path: 'discontinuedDate', message: 'validation:discontinuedBeforePrescribed' },
    );
  });
});

describe('statuses, severities, conditions, medication names and times', () => {
  it.each([
    ['diagnoses', 'status', 'Pending'],
    ['diagnoses', 'status', 'active'],
    ['appointments', 'status', 'Done'],
    ['allergies', 'severity', 'High'],
    ['medications', 'status', 'Paused'],
  ] as const)('%s.%s refuses %s', async (kind, field, value) => {
    await expectRefused(kind, { [field]: value }, { path: field, message: 'validation:invalidChoice' });
  });

  it("condition: 2-200 characters of letters, digits, spaces and - ( ) / . '", async () => {
    await expectRefused('diagnoses', { condition: 'A' }, { path: 'condition', message: 'validation:conditionLength' });
    await expectRefused('diagnoses', { condition: 'x'.repeat(201) }, { path: 'condition', message: 'validation:tooLong' });
    await expectRefused(
      'diagnoses',
      { condition: '<script>alert(1)</script>' },
      { path: 'condition', message: 'validation:conditionCharacters' },
    );
    await expectRefused('diagnoses', { condition: 'Fever; DROP TABLE' }, { path: 'condition', message: 'validation:conditionCharacters' });
    const ok = await add('diagnoses', { ...SAMPLE_INPUTS.diagnoses, condition: 'Fracture (left tibia) - post-op / day 3. Ömvä' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().condition).toBe('Fracture (left tibia) - post-op / day 3. Ömvä');
    // An apostrophe, as the ICD-10 catalogue writes "Crohn's disease" (issue 26 item 1).
    for (const condition of ["Crohn's disease", 'Crohn’s disease']) {
      const named = await add('diagnoses', { ...SAMPLE_INPUTS.diagnoses, condition });
      expect(named.statusCode).toBe(201);
      expect(named.json().condition).toBe(condition);
    }
  });

  it('medication name: 2-100 characters', async () => {
    await expectRefused('medications', { name: 'A' }, { path: 'name', message: 'validation:medicationNameLength' });
    await expectRefused('medications', { name: 'x'.repeat(101) }, { path: 'name', message: 'validation:tooLong' });
    await expectRefused('medications', { dosage: 'x'.repeat(51) }, { path: 'dosage', message: 'validation:tooLong' });
    expect((await add('medications', { ...SAMPLE_INPUTS.medications, name: 'x'.repeat(100) })).statusCode).toBe(201);
  });

  it('appointment time: HH:mm or nothing', async () => {
    for (const time of ['25:00', '9:30', '09:60', 'noon']) {
      await expectRefused('appointments', { time }, { path: 'time', message: 'validation:timeInvalid' });
    }
    expect((await add('appointments', { ...SAMPLE_INPUTS.appointments, time: '' })).json().time).toBeNull();
    expect((await add('appointments', { ...SAMPLE_INPUTS.appointments, time: '23:59' })).json().time).toBe('23:59');
  });
});

describe('vital signs (SPEC §5 ranges)', () => {
  it.each([
    [{ systolic: 49, diastolic: 40 }, 'systolic', 'validation:systolicRange'],
    [{ systolic: 301, diastolic: 90 }, 'systolic', 'validation:systolicRange'],
    [{ systolic: 120, diastolic: 29 }, 'diastolic', 'validation:diastolicRange'],
    [{ systolic: 250, diastolic: 201 }, 'diastolic', 'validation:diastolicRange'],
    [{ systolic: 120.5, diastolic: 80 }, 'systolic', 'validation:systolicRange'],
    [{ systolic: '120', diastolic: 80 }, 'systolic', 'validation:systolicRange'],
    [{ temperature: 29.9 }, 'temperature', 'validation:temperatureRange'],
    [{ temperature: 45.1 }, 'temperature', 'validation:temperatureRange'],
    [{ temperature: '37' }, 'temperature', 'validation:temperatureRange'],
    [{ weight: 0.4 }, 'weight', 'validation:weightRange'],
    [{ weight: 500.1 }, 'weight', 'validation:weightRange'],
  ])('refuses %j', async (body, path, message) => {
    const before = await stored();
    const res = await add('vitals', body);
    expect(res.statusCode).toBe(400);
    expect(issuesOf(res.json())).toContainEqual({ path, message });
    expect(await stored()).toEqual(before);
  });

  it('needs both blood pressure numbers, diastolic below systolic, and at least one measure', async () => {
    for (const [body, message] of [
      [{ systolic: 120 }, 'validation:bloodPressureBoth'],
      [{ diastolic: 80 }, 'validation:bloodPressureBoth'],
      [{}, 'validation:vitalsEmpty'],
    ] as const) {
      const res = await add('vitals', body);
      expect(res.statusCode).toBe(400);
      expect(issuesOf(res.json())).toContainEqual({ path: 'systolic', message });
    }
    const res = await add('vitals', { systolic: 120, diastolic: 120 });
    expect(issuesOf(res.json())).toContainEqual({ path: 'diastolic', message: 'validation:diastolicBelowSystolic' });
  });

  it('refuses a reading dated in the future or unknown fields', async () => {
    await expectRefused('vitals', { recordedAt: '2025-06-15T11:00:00Z' }, { path: 'recordedAt', message: 'validation:dateFuture' });
    await expectRefused('vitals', { recordedAt: 'today' }, { path: 'recordedAt', message: 'validation:recordedAtInvalid' });
    await expectRefused('vitals', { recordedBy: 'Someone Else' });
  });

  it('accepts the range edges: 50/30, 300/200, 30 and 45 °C, 0.5 and 500 kg', async () => {
    for (const body of [
      { systolic: 50, diastolic: 30 },
      { systolic: 300, diastolic: 200 },
      { temperature: 30, weight: 0.5 },
      { temperature: 45, weight: 500 },
    ]) {
      expect((await add('vitals', body)).statusCode, JSON.stringify(body)).toBe(201);
    }
  });
});

describe('request shape', () => {
  it('refuses a body that is not JSON or too large', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/diagnoses`,
      headers: { cookie, 'content-type': 'text/plain' },
      payload: 'condition=Asthma',
    });
    expect(res.statusCode).toBe(415);
    const big = await add('diagnoses', { ...SAMPLE_INPUTS.diagnoses, description: 'x'.repeat(200_000) });
    expect(big.statusCode).toBe(413);
  });
});
