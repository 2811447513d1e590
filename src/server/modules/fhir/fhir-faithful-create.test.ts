// Faithful creates (issue 26 item 1, decision 049) through the real app and database: every resource type the API
// accepts is created with every element the record can hold, read back and compared element by element (nothing
// changed, nothing dropped); an element or value it cannot hold is a 422 OperationOutcome naming it, storing nothing;
// refuted and entered-in-error resources are stored entered in error (hidden from the lists and the IPS, readable,
// kept in the history). Every resource answered validates against the official R4 definitions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ATC_SYSTEM, CVX_SYSTEM, ICD10_SYSTEM, LOINC_SYSTEM } from '../../../contracts/codes';
import { expectValidFhir } from '../../test/fhir-validator';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { confirmAccess, recordApi } from '../../test/record-api';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

type Json = Record<string, unknown>;
let t: TestApp;
let cookie: string;
let patient: TestPatient;

const SNOMED = 'http://snomed.info/sct';
const UCUM = 'http://unitsofmeasure.org';
const OBS_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const CONDITION_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const ALLERGY_CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const ALLERGY_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const IPS_ABSENT = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/fhir+json', ...headers },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, location: res.headers.location, body: res.json<Json>() };
};
const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  return { status: res.statusCode, body: res.json<Json>() };
};
const pathOf = (location: string | undefined) => new URL(location!).pathname;
const entries = (bundle: Json) => ((bundle.entry as { resource: Json }[] | undefined) ?? []).map((e) => e.resource);
const expressions = (outcome: Json) => (outcome.issue as { expression?: string[] }[]).flatMap((i) => i.expression ?? []);
/** The rows of every table a create could add to, and the audit log. */
const stored = async () =>
  queryOne<Json>(
    t.db,
    sql`SELECT (SELECT count(*) FROM diagnoses)::int AS d, (SELECT count(*) FROM allergies)::int AS a,
               (SELECT count(*) FROM medications)::int AS m, (SELECT count(*) FROM vaccines)::int AS v,
               (SELECT count(*) FROM vitals)::int AS s, (SELECT count(*) FROM lab_results)::int AS l,
               (SELECT count(*) FROM record_versions)::int AS r, (SELECT count(*) FROM audit_logs)::int AS au`,
  );

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signInAs(t, 3)).cookie;
  patient = await createPatient(t.db);
  await confirmAccess(t, cookie, patient.id);
});
afterAll(async () => {
  await t?.close();
});

const subject = () => ({ reference: `Patient/${patient.id}` });

/** Every resource type the API accepts, with every element the record can hold. */
const FULL: [string, () => Json][] = [
  [
    'Condition (ICD-10 and SNOMED CT, chronic)',
    () => ({
      resourceType: 'Condition',
      extension: [
        { url: 'https://nhr.health.gov.na/fhir/StructureDefinition/chronic-condition', valueBoolean: true },
        { url: 'https://nhr.health.gov.na/fhir/StructureDefinition/recording-facility', valueString: 'Katutura State Hospital' },
      ],
      clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: 'active' }] },
      verificationStatus: { coding: [{ system: CONDITION_VERIFICATION, code: 'confirmed' }] },
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-category', code: 'problem-list-item' }] }],
      code: {
        coding: [
          { system: ICD10_SYSTEM, code: 'J45', display: 'Asthma' },
          { system: SNOMED, code: '195967001', display: 'Asthma' },
        ],
        text: 'Asthma',
      },
      subject: subject(),
      onsetDateTime: '2022-01-15',
      recordedDate: '2022-01-15',
      asserter: { display: 'Dr. Selma Nangolo' },
      note: [{ text: 'Worse in the dry season.' }],
    }),
  ],
  [
    "Condition (SNOMED CT only, resolved: Crohn's disease)",
    () => ({
      resourceType: 'Condition',
      extension: [{ url: 'https://nhr.health.gov.na/fhir/StructureDefinition/recording-facility', valueString: 'Oshakati Hospital' }],
      clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: 'resolved' }] },
      verificationStatus: { coding: [{ system: CONDITION_VERIFICATION, code: 'confirmed' }] },
      code: { coding: [{ system: SNOMED, code: '34000006', display: "Crohn's disease" }], text: "Crohn's disease" },
      subject: subject(),
      onsetDateTime: '2019-03-02',
      abatementDateTime: '2021-08-30',
      asserter: { display: 'Dr. Petrus Amutenya' },
    }),
  ],
  [
    'AllergyIntolerance (ATC class and SNOMED CT)',
    () => ({
      resourceType: 'AllergyIntolerance',
      clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL, code: 'active' }] },
      verificationStatus: { coding: [{ system: ALLERGY_VERIFICATION, code: 'confirmed' }] },
      criticality: 'high',
      code: {
        coding: [
          { system: ATC_SYSTEM, code: 'J01C', display: 'Penicillins' },
          { system: SNOMED, code: '91936005', display: 'Allergy to penicillin' },
        ],
        text: 'Penicillin',
      },
      patient: subject(),
      recordedDate: '2021-06-01',
      reaction: [{ manifestation: [{ text: 'Anaphylaxis' }], severity: 'severe' }],
    }),
  ],
  [
    'AllergyIntolerance: no known allergy (SNOMED CT)',
    () => ({
      resourceType: 'AllergyIntolerance',
      clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL, code: 'active' }] },
      verificationStatus: { coding: [{ system: ALLERGY_VERIFICATION, code: 'confirmed' }] },
      code: { coding: [{ system: SNOMED, code: '716186003', display: 'No known allergy' }], text: 'No known allergy' },
      patient: subject(),
      recordedDate: '2024-02-01',
    }),
  ],
  [
    'AllergyIntolerance: no known allergies (IPS absent/unknown)',
    () => ({
      resourceType: 'AllergyIntolerance',
      clinicalStatus: { coding: [{ system: ALLERGY_CLINICAL, code: 'active' }] },
      code: { coding: [{ system: IPS_ABSENT, code: 'no-known-allergies', display: 'No known allergies' }] },
      patient: subject(),
      recordedDate: '2024-02-02',
    }),
  ],
  [
    'MedicationStatement (ATC)',
    () => ({
      resourceType: 'MedicationStatement',
      status: 'stopped',
      medicationCodeableConcept: { coding: [{ system: ATC_SYSTEM, code: 'R03AC02', display: 'salbutamol' }], text: 'Salbutamol inhaler' },
      subject: subject(),
      effectivePeriod: { start: '2022-01-15', end: '2023-01-15' },
      dateAsserted: '2022-01-15',
      informationSource: { display: 'Dr. Selma Nangolo' },
      reasonCode: [{ text: 'Asthma' }],
      dosage: [{ text: '2 puffs, when needed' }],
      note: [{ text: 'Next review: 2022-07-15' }],
    }),
  ],
  [
    'Immunization (CVX, with its ATC code)',
    () => ({
      resourceType: 'Immunization',
      status: 'completed',
      vaccineCode: {
        coding: [
          { system: CVX_SYSTEM, code: '04', display: 'Measles and rubella vaccine, live' },
          { system: ATC_SYSTEM, code: 'J07BD53', display: 'measles, combinations with rubella, live attenuated' },
        ],
        text: 'Measles-rubella',
      },
      patient: subject(),
      occurrenceDateTime: '2020-09-01',
      primarySource: true,
      location: { display: 'Rundu State Hospital' },
      lotNumber: 'MR-2020-77',
      protocolApplied: [{ doseNumberString: '2' }],
      note: [{ text: 'Next dose due: 2030-09-01' }],
    }),
  ],
  [
    'Observation (laboratory, numeric with range and interpretation)',
    () => ({
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: OBS_CATEGORY, code: 'laboratory' }] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: '718-7', display: 'Hemoglobin' }], text: 'Haemoglobin' },
      subject: subject(),
      effectiveDateTime: '2024-07-01',
      performer: [{ display: 'Windhoek Central Hospital Laboratory' }],
      valueQuantity: { value: 10.5, unit: 'g/dL', system: UCUM, code: 'g/dL' },
      interpretation: [{ coding: [{ system: INTERPRETATION, code: 'L' }] }],
      referenceRange: [
        { low: { value: 12, unit: 'g/dL', system: UCUM, code: 'g/dL' }, high: { value: 16, unit: 'g/dL', system: UCUM, code: 'g/dL' } },
      ],
    }),
  ],
  [
    'Observation (laboratory, text, preliminary)',
    () => ({
      resourceType: 'Observation',
      status: 'preliminary',
      category: [{ coding: [{ system: OBS_CATEGORY, code: 'laboratory' }] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: '68961-2' }], text: 'HIV rapid test' },
      subject: subject(),
      effectiveDateTime: '2024-06-10',
      performer: [{ display: 'Okuryangava Clinic' }],
      valueString: 'Negative',
    }),
  ],
  [
    'Observation (vital signs: blood pressure)',
    () => ({
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: OBS_CATEGORY, code: 'vital-signs' }] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: '85354-9' }] },
      subject: subject(),
      effectiveDateTime: '2024-05-02T06:15:00.000Z',
      component: [
        {
          code: { coding: [{ system: LOINC_SYSTEM, code: '8480-6' }] },
          valueQuantity: { value: 142, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' },
        },
        {
          code: { coding: [{ system: LOINC_SYSTEM, code: '8462-4' }] },
          valueQuantity: { value: 91, unit: 'mmHg', system: UCUM, code: 'mm[Hg]' },
        },
      ],
    }),
  ],
  [
    'Observation (vital signs: temperature)',
    () => ({
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: OBS_CATEGORY, code: 'vital-signs' }] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: '8310-5' }] },
      subject: subject(),
      effectiveDateTime: '2024-05-03T07:00:00.000Z',
      valueQuantity: { value: 37.9, unit: 'C', system: UCUM, code: 'Cel' },
    }),
  ],
  [
    'Observation (vital signs: weight)',
    () => ({
      resourceType: 'Observation',
      status: 'final',
      code: { coding: [{ system: LOINC_SYSTEM, code: '29463-7' }] },
      subject: subject(),
      effectiveDateTime: '2024-05-04T07:00:00.000Z',
      valueQuantity: { value: 70.5, unit: 'kg', system: UCUM, code: 'kg' },
    }),
  ],
];

describe('round trip: every element the record can hold comes back as sent', () => {
  it.each(FULL)('%s', async (_name, body) => {
    const sent = expectValidFhir(body() as Json & { resourceType: string });
    const created = await post(`/fhir/R4/${sent.resourceType as string}`, sent);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectValidFhir(created.body as Json & { resourceType: string });
    const read = await get(pathOf(created.location));
    expect(read.status).toBe(200);
    expectValidFhir(read.body as Json & { resourceType: string });
    // Element by element: each sent element is in the read, unchanged (the server may add its own: id, meta, text).
    for (const [element, value] of Object.entries(sent)) {
      if (typeof value === 'object') expect(read.body[element], element).toMatchObject(value as object);
      else expect(read.body[element], element).toBe(value);
    }
    expect(read.body).toEqual(created.body);
  });

  it('lists a "no known allergy" on the staff screen with no reaction', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/patients/${patient.id}/allergies`, headers: { cookie } });
    const allergens = res.json<{ allergen: string; reaction: string }[]>().map((a) => [a.allergen, a.reaction]);
    expect(allergens).toEqual(
      expect.arrayContaining([
        ['No known allergy', ''],
        ['No known allergies', ''],
      ]),
    );
  });
});

describe('what the record cannot hold is refused with 422 naming it, and nothing is stored', () => {
  const condition = () => FULL[0]![1]();
  const allergy = () => FULL[2]![1]();
  const medication = () => FULL[5]![1]();
  const vaccine = () => FULL[6]![1]();
  const lab = () => FULL[7]![1]();
  const temperature = () => FULL[10]![1]();
  const cases: [string, () => Json, string][] = [
    ['an unknown element', () => ({ ...condition(), severity: { text: 'Severe' } }), 'Condition.severity'],
    [
      'a verification status it has not',
      () => ({ ...condition(), verificationStatus: { coding: [{ system: CONDITION_VERIFICATION, code: 'provisional' }] } }),
      'Condition.verificationStatus',
    ],
    [
      'a clinical status it has not',
      () => ({ ...condition(), clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: 'remission' }] } }),
      'Condition.clinicalStatus',
    ],
    [
      'a time of onset',
      () => ({ ...condition(), onsetDateTime: '2022-01-15T10:00:00+02:00', recordedDate: undefined }),
      'Condition.onsetDateTime',
    ],
    ['a second date', () => ({ ...condition(), recordedDate: '2022-02-01' }), 'Condition.recordedDate'],
    [
      'a coding version',
      () => ({ ...condition(), code: { coding: [{ system: SNOMED, code: '195967001', version: '2024' }] } }),
      'Condition.code.coding[0].version',
    ],
    ['a patient display', () => ({ ...condition(), subject: { ...subject(), display: 'Someone' } }), 'Condition.subject.display'],
    ['a meta tag', () => ({ ...condition(), meta: { tag: [{ code: 'x' }] } }), 'Condition.meta.tag'],
    ['an unknown extension', () => ({ ...condition(), extension: [{ url: 'urn:x', valueString: 'y' }] }), 'Condition.extension[0]'],
    ['an allergy category', () => ({ ...allergy(), category: ['medication'] }), 'AllergyIntolerance.category'],
    [
      'an unconfirmed allergy',
      () => ({ ...allergy(), verificationStatus: { coding: [{ system: ALLERGY_VERIFICATION, code: 'unconfirmed' }] } }),
      'AllergyIntolerance.verificationStatus',
    ],
    [
      'a coded manifestation',
      () => ({ ...allergy(), reaction: [{ manifestation: [{ coding: [{ system: SNOMED, code: '39579001' }] }], severity: 'severe' }] }),
      'AllergyIntolerance.reaction.manifestation.coding',
    ],
    ['a criticality the severity contradicts', () => ({ ...allergy(), criticality: 'low' }), 'AllergyIntolerance.criticality'],
    ['a medication on hold', () => ({ ...medication(), status: 'on-hold' }), 'MedicationStatement.status'],
    ['a medication taken at a time', () => ({ ...medication(), effectiveDateTime: '2022-01-15' }), 'MedicationStatement.effectiveDateTime'],
    ['an immunization not done', () => ({ ...vaccine(), status: 'not-done' }), 'Immunization.status'],
    [
      'a dose as a number',
      () => ({ ...vaccine(), protocolApplied: [{ doseNumberPositiveInt: 2 }] }),
      'Immunization.protocolApplied.doseNumberPositiveInt',
    ],
    ['an amended result', () => ({ ...lab(), status: 'amended' }), 'Observation.status'],
    ['when a result was issued', () => ({ ...lab(), issued: '2024-07-02T08:00:00Z' }), 'Observation.issued'],
    [
      'an interpretation the range contradicts',
      () => ({ ...lab(), interpretation: [{ coding: [{ system: INTERPRETATION, code: 'H' }] }] }),
      'Observation.interpretation',
    ],
    [
      'a coded result',
      () => ({ ...lab(), valueQuantity: undefined, valueCodeableConcept: { text: 'Low' } }),
      'Observation.valueCodeableConcept',
    ],
    ['a preliminary vital sign', () => ({ ...temperature(), status: 'preliminary' }), 'Observation.status'],
    ['who measured a vital sign', () => ({ ...temperature(), performer: [{ display: 'Nurse' }] }), 'Observation.performer'],
    [
      'a temperature in Fahrenheit',
      () => ({ ...temperature(), valueQuantity: { value: 99, code: '[degF]' } }),
      'Observation.valueQuantity.code',
    ],
  ];

  it.each(cases)('%s', async (_name, body, expression) => {
    const before = await stored();
    const sent = JSON.parse(JSON.stringify(body())) as Json;
    const res = await post(`/fhir/R4/${sent.resourceType as string}`, sent);
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expectValidFhir(res.body as Json & { resourceType: string });
    expect(res.body.resourceType).toBe('OperationOutcome');
    expect(expressions(res.body)).toContain(expression);
    expect((res.body.issue as { code: string }[])[0]!.code).toBe('not-supported');
    expect(await stored()).toEqual(before);
  });
});

describe('refuted and entered-in-error resources are stored entered in error', () => {
  const cases: [string, () => Json, (r: Json) => unknown][] = [
    [
      'Condition entered-in-error',
      () => {
        const { clinicalStatus: _c, extension: _e, ...rest } = FULL[0]![1]();
        return {
          ...rest,
          code: { text: 'HIV infection' },
          verificationStatus: { coding: [{ system: CONDITION_VERIFICATION, code: 'entered-in-error' }] },
        };
      },
      (r) => r.verificationStatus,
    ],
    [
      'Condition refuted',
      () => ({
        ...FULL[0]![1](),
        code: { text: 'Tuberculosis' },
        verificationStatus: { coding: [{ system: CONDITION_VERIFICATION, code: 'refuted' }] },
      }),
      (r) => r.verificationStatus,
    ],
    [
      'AllergyIntolerance refuted',
      () => ({
        ...FULL[2]![1](),
        code: { text: 'Sulfonamides' },
        verificationStatus: { coding: [{ system: ALLERGY_VERIFICATION, code: 'refuted' }] },
      }),
      (r) => r.verificationStatus,
    ],
    ['MedicationStatement entered-in-error', () => ({ ...FULL[5]![1](), status: 'entered-in-error' }), (r) => r.status],
    [
      'Immunization entered-in-error',
      () => ({ ...FULL[6]![1](), status: 'entered-in-error', occurrenceDateTime: '2021-09-01' }),
      (r) => r.status,
    ],
    [
      'Observation (laboratory) entered-in-error',
      () => ({ ...FULL[8]![1](), status: 'entered-in-error', effectiveDateTime: '2024-06-11' }),
      (r) => r.status,
    ],
    ['Observation (vital signs) entered-in-error', () => ({ ...FULL[11]![1](), status: 'entered-in-error' }), (r) => r.status],
  ];

  it.each(cases)('%s: answered and read as sent, left out of searches and the IPS, kept in the history', async (_name, body, statusOf) => {
    const sent = expectValidFhir(body() as Json & { resourceType: string });
    const type = sent.resourceType as string;
    const created = await post(`/fhir/R4/${type}`, sent);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectValidFhir(created.body as Json & { resourceType: string });
    expect(statusOf(created.body)).toEqual(statusOf(sent));
    const read = await get(pathOf(created.location));
    expect(read.status).toBe(200);
    expect(statusOf(expectValidFhir(read.body as Json & { resourceType: string }))).toEqual(statusOf(sent));

    const id = created.body.id as string;
    const search = await get(`/fhir/R4/${type}?patient=${patient.id}`);
    expect(entries(search.body).map((r) => r.id)).not.toContain(id);
    const summary = await get(`/fhir/R4/Patient/${patient.id}/$summary`);
    expect(
      entries(expectValidFhir(summary.body as Json & { resourceType: string })).map((r) => `${r.resourceType as string}/${r.id as string}`),
    ).not.toContain(`${type}/${id}`);
    const kinds: Record<string, string> = {
      Condition: 'diagnoses',
      AllergyIntolerance: 'allergies',
      MedicationStatement: 'medications',
      Immunization: 'vaccines',
    };
    const kind = kinds[type];
    const rowId = id.replace(/^lab-/, '').replace(/-(bp|temperature|weight)$/, '');
    const staffKind = kind ?? (id.startsWith('lab-') ? 'lab-results' : 'vitals');
    const history = await t.app.inject({ method: 'GET', url: `/api/${staffKind}/${rowId}/history`, headers: { cookie } });
    expect(history.statusCode).toBe(200);
    expect(JSON.stringify(history.json())).toContain('entered');
  });
});

describe('a staff edit of an entry sent with codings of its own', () => {
  it('keeps them when another field changes, and drops them when the words they code change', async () => {
    const sent = {
      resourceType: 'Condition',
      clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: 'active' }] },
      code: { coding: [{ system: SNOMED, code: '38341003', display: 'Hypertensive disorder' }], text: 'High blood pressure' },
      subject: subject(),
      onsetDateTime: '2018-01-01',
    };
    const created = await post('/fhir/R4/Condition', sent);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = Number(created.body.id);
    const api = recordApi(t, cookie);
    const described = await api.edit('diagnoses', id, { description: 'Checked monthly' });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json<{ codings: unknown }>().codings).toEqual([
      { system: SNOMED, code: '38341003', display: 'Hypertensive disorder' },
    ]);
    expect((await get(`/fhir/R4/Condition/${id}`)).body.code).toEqual(sent.code);
    const renamed = await api.edit('diagnoses', id, { condition: 'Hypertension' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json<{ codings: unknown }>().codings).toBeNull();
    expect((await get(`/fhir/R4/Condition/${id}`)).body.code).toEqual({ text: 'Hypertension' });
  });
});
