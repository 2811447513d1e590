// Coded resources and laboratory results in the FHIR API (issue 22 items 2 and 3), validated against the official R4
// definitions (test/fhir-validator.ts): coded entries carry their catalogue coding beside the text; laboratory
// results are Observations (category laboratory, `lab-<id>`) searchable by patient, code, category and date, and
// creatable; the IPS $summary has a Results section.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATC_SYSTEM, CVX_SYSTEM, ICD10_SYSTEM, LOINC_SYSTEM } from '../../../contracts/codes';
import { expectValidFhir } from '../../test/fhir-validator';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

type Json = Record<string, unknown> & { resourceType: string };
let t: TestApp;
let cookie: string;
let patient: TestPatient;
const ids: Record<string, number> = {};

const get = async (url: string) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  return { status: res.statusCode, body: res.json<Json>() };
};
const post = async (url: string, body: unknown) => {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/fhir+json' },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, body: res.json<Json>() };
};
const entries = (bundle: Json) => ((bundle.entry as { resource: Json }[] | undefined) ?? []).map((e) => e.resource);

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signInAs(t, 3)).cookie;
  patient = await createPatient(t.db);
  await confirmAccess(t, cookie, patient.id);
  const api = recordApi(t, cookie);
  const add = async (name: string, kind: Parameters<typeof api.add>[0], body: Record<string, unknown>) => {
    const res = await api.add(kind, patient.id, body);
    expect(res.statusCode, res.body).toBe(201);
    ids[name] = res.json<{ id: number }>().id;
  };
  await add('condition', 'diagnoses', { ...SAMPLE_INPUTS.diagnoses, code: 'E11.9', codeSystem: ICD10_SYSTEM });
  await add('medication', 'medications', { ...SAMPLE_INPUTS.medications, code: 'A10BA02', codeSystem: ATC_SYSTEM });
  await add('vaccine', 'vaccines', { ...SAMPLE_INPUTS.vaccines, vaccine: 'MR1', code: '04', codeSystem: CVX_SYSTEM });
  await add('hba1c', 'lab-results', {
    ...SAMPLE_INPUTS['lab-results'],
    name: 'HbA1c',
    code: '4548-4',
    codeSystem: LOINC_SYSTEM,
    value: 8.1,
    unit: '%',
    referenceLow: 4,
    referenceHigh: 5.6,
    collectedDate: '2024-05-02',
  });
  await add('hiv', 'lab-results', {
    name: 'HIV rapid test',
    code: '68961-2',
    codeSystem: LOINC_SYSTEM,
    value: 'Negative',
    collectedDate: '2024-06-10',
    status: 'preliminary',
    facility: 'Okuryangava Clinic',
  });
  await add('vitals', 'vitals', SAMPLE_INPUTS.vitals);
});
afterAll(async () => {
  await t?.close();
});

describe('coded resources', () => {
  it.each([
    ['Condition', 'condition', 'code', ICD10_SYSTEM, 'E11.9'],
    ['MedicationStatement', 'medication', 'medicationCodeableConcept', ATC_SYSTEM, 'A10BA02'],
    ['Immunization', 'vaccine', 'vaccineCode', CVX_SYSTEM, '04'],
  ])('%s carries the catalogue coding beside the text', async (type, name, element, system, code) => {
    const res = await get(`/fhir/R4/${type}/${ids[name]}`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    const concept = res.body[element] as { coding: { system: string; code: string; display: string }[]; text: string };
    expect(concept.coding).toEqual([{ system, code, display: expect.any(String) }]);
    expect(concept.text).toBeTruthy();
  });
});

describe('laboratory Observations', () => {
  it('reads a numeric result with its unit, range and interpretation', async () => {
    const res = await get(`/fhir/R4/Observation/lab-${ids.hba1c}`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({
      id: `lab-${ids.hba1c}`,
      status: 'final',
      category: [{ coding: [{ code: 'laboratory' }] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: '4548-4' }], text: 'HbA1c' },
      effectiveDateTime: '2024-05-02',
      valueQuantity: { value: 8.1, unit: '%', system: 'http://unitsofmeasure.org', code: '%' },
      referenceRange: [{ low: { value: 4 }, high: { value: 5.6 } }],
      interpretation: [{ coding: [{ code: 'HH' }] }],
    });
  });

  it('reads a text result as valueString', async () => {
    const res = await get(`/fhir/R4/Observation/lab-${ids.hiv}`);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({ status: 'preliminary', valueString: 'Negative' });
    expect(res.body.interpretation).toBeUndefined();
  });

  it('searches by patient (vital signs and laboratory), by category, by code and by date', async () => {
    const all = await get(`/fhir/R4/Observation?patient=${patient.id}`);
    expect(all.status).toBe(200);
    expectValidFhir(all.body);
    const idsOf = (b: Json) =>
      entries(b)
        .map((r) => r.id)
        .sort();
    expect(idsOf(all.body)).toEqual(
      [`${ids.vitals}-bp`, `${ids.vitals}-temperature`, `${ids.vitals}-weight`, `lab-${ids.hba1c}`, `lab-${ids.hiv}`].sort(),
    );
    expect(idsOf((await get(`/fhir/R4/Observation?patient=${patient.id}&category=laboratory`)).body)).toEqual(
      [`lab-${ids.hba1c}`, `lab-${ids.hiv}`].sort(),
    );
    expect(idsOf((await get(`/fhir/R4/Observation?patient=${patient.id}&code=http://loinc.org|4548-4`)).body)).toEqual([
      `lab-${ids.hba1c}`,
    ]);
    expect(idsOf((await get(`/fhir/R4/Observation?patient=${patient.id}&category=laboratory&date=ge2024-06-01`)).body)).toEqual([
      `lab-${ids.hiv}`,
    ]);
    expect(idsOf((await get(`/fhir/R4/Observation?patient=${patient.id}&date=lt2024-06-01&category=laboratory`)).body)).toEqual([
      `lab-${ids.hba1c}`,
    ]);
    expect(idsOf((await get(`/fhir/R4/Observation?patient=${patient.id}&category=vital-signs&code=8310-5`)).body)).toEqual([
      `${ids.vitals}-temperature`,
    ]);
  });

  it('refuses an unsupported category, a code of another system and a malformed date with 400', async () => {
    for (const q of ['category=imaging', 'code=http://snomed.info/sct|1234', 'date=2024-13-45', 'date=after2024-01-01']) {
      expect((await get(`/fhir/R4/Observation?patient=${patient.id}&${q}`)).status, q).toBe(400);
    }
  });

  it('answers 404 for an unknown laboratory id', async () => {
    expect((await get('/fhir/R4/Observation/lab-2000000000')).status).toBe(404);
    expect((await get('/fhir/R4/Observation/lab-x')).status).toBe(404);
  });

  it('creates a laboratory result from an Observation (category laboratory), checked by the same rules', async () => {
    const body = {
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'laboratory' }] }],
      code: { coding: [{ system: LOINC_SYSTEM, code: '718-7', display: 'Hemoglobin' }], text: 'Haemoglobin' },
      subject: { reference: `Patient/${patient.id}` },
      effectiveDateTime: '2024-07-01',
      valueQuantity: { value: 10.5, unit: 'g/dL', system: 'http://unitsofmeasure.org', code: 'g/dL' },
      referenceRange: [{ low: { value: 12 }, high: { value: 16 } }],
      performer: [{ display: 'Windhoek Central Hospital Laboratory' }],
    };
    const res = await post('/fhir/R4/Observation', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({ id: expect.stringMatching(/^lab-\d+$/), interpretation: [{ coding: [{ code: 'L' }] }] });

    const before = await auditCount(t);
    const text = await post('/fhir/R4/Observation', { ...body, valueQuantity: undefined, valueString: 'low' });
    expect(text.status).toBe(400); // haemoglobin reports a number
    const unknown = await post('/fhir/R4/Observation', {
      ...body,
      code: { coding: [{ system: LOINC_SYSTEM, code: '0000-0' }], text: 'X' },
    });
    expect(unknown.status).toBe(400);
    expect(await auditCount(t)).toBe(before);
  });
});

describe('the IPS $summary', () => {
  it('has a Results section with the laboratory results, and validates', async () => {
    const res = await get(`/fhir/R4/Patient/${patient.id}/$summary`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    const composition = entries(res.body)[0] as unknown as {
      section: { title: string; code: { coding: { code: string }[] }; entry?: { reference: string }[] }[];
    };
    const results = composition.section.find((s) => s.code.coding[0]!.code === '30954-2');
    expect(results?.title).toBe('Results');
    const refs = results?.entry?.map((e) => e.reference) ?? [];
    expect(refs).toEqual(expect.arrayContaining([`Observation/lab-${ids.hba1c}`, `Observation/lab-${ids.hiv}`]));
    expect(refs.every((r) => r.startsWith('Observation/lab-'))).toBe(true);
  });
});
