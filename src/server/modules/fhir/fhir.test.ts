// The FHIR R4 API (issue 14) through the real app and database: every resource and Bundle it answers validates
// against the official R4 definitions with zero errors (test/fhir-validator.ts); the staff API's rules hold (a read
// without a live grant is 403 with no data, every read and search writes its audit row); unsupported parameters and
// bad resources are 400 OperationOutcomes that change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { RECORD_KINDS } from '../../../contracts/kinds';
import { expectValidFhir, validated } from '../../test/fhir-validator';
import { createSystemClient } from '../../test/api-client-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { NC_NUMBER_SYSTEM } from '../../fhir/resources';

let t: TestApp;
let doctor: { cookie: string; user: StaffUser };
let nurse: { cookie: string; user: StaffUser };
let auditor: { cookie: string; user: StaffUser };
let patient: TestPatient;
let other: TestPatient;
const ids: Record<string, number> = {};

type Json = Record<string, unknown> & { resourceType: string };

const get = async (url: string, cookie = doctor.cookie) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie } });
  return { status: res.statusCode, type: res.headers['content-type'], body: res.json<Json>() };
};
const post = async (url: string, body: unknown, cookie = doctor.cookie) => {
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/fhir+json' },
    payload: JSON.stringify(body),
  });
  return { status: res.statusCode, location: res.headers.location, body: res.json<Json>() };
};
const auditCount = async () => Number((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n);
const lastAudit = () => queryOne<Record<string, unknown>>(t.db, sql`SELECT * FROM audit_logs ORDER BY id DESC LIMIT 1`);
const entries = (bundle: Json) => (bundle.entry as { resource: Json; search?: Record<string, unknown> }[] | undefined) ?? [];
const outcomeCode = (body: Json) => (body.issue as { code: string; details: { coding: { code: string }[] } }[])[0]!;

beforeAll(async () => {
  t = await createTestApp();
  doctor = await signInAs(t, 3);
  nurse = await signInAs(t, 4);
  auditor = await signInAs(t, 6);
  patient = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: '1984-03-09' });
  other = await createPatient(t.db, { firstName: 'Johannes', lastName: 'Haufiku' });
  const grant = await t.app.inject({
    method: 'POST',
    url: `/api/patients/${patient.id}/access`,
    headers: { cookie: doctor.cookie },
    payload: { consent: true },
  });
  expect(grant.statusCode).toBe(201);
  for (const kind of RECORD_KINDS) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/${kind}`,
      headers: { cookie: doctor.cookie },
      payload: SAMPLE_INPUTS[kind],
    });
    expect(res.statusCode).toBe(201);
    ids[kind] = res.json<{ id: number }>().id;
  }
});
afterAll(async () => {
  console.warn(
    `FHIR validation: ${validated.resources} resources (${validated.bundles} Bundles, ${validated.profiles} profile checks), 0 errors`,
  );
  await t?.close();
});

describe('metadata and errors', () => {
  it('answers a CapabilityStatement naming every resource, without signing in', async () => {
    const res = await get('/fhir/R4/metadata', '');
    expect(res.status).toBe(200);
    expect(res.type).toContain('application/fhir+json');
    expectValidFhir(res.body);
    const types = (res.body.rest as { resource: { type: string }[] }[])[0]!.resource.map((r) => r.type);
    expect([...types].sort()).toEqual(
      [
        'Patient',
        'Condition',
        'AllergyIntolerance',
        'MedicationStatement',
        'Immunization',
        'ImmunizationRecommendation',
        'Appointment',
        'Observation',
        'DiagnosticReport',
        'AuditEvent',
      ].sort(),
    );
  });

  it('refuses the signed-out with 401, an unknown route with 404, a patient session with 401: OperationOutcomes', async () => {
    const signedOut = await get(`/fhir/R4/Patient/${patient.id}`, '');
    expect(signedOut.status).toBe(401);
    expect(outcomeCode(expectValidFhir(signedOut.body)).code).toBe('login');
    const unknown = await get('/fhir/R4/Encounter?patient=1');
    expect(unknown.status).toBe(404);
    expect(expectValidFhir(unknown.body).resourceType).toBe('OperationOutcome');
  });

  it('refuses unsupported, repeated or malformed search parameters with 400, never ignoring them', async () => {
    for (const url of [
      `/fhir/R4/Condition?patient=${patient.id}&severity=severe`,
      `/fhir/R4/Condition?patient=${patient.id}&onset-date=ap2024`,
      `/fhir/R4/Condition?patient=${patient.id}&patient=${other.id}`,
      `/fhir/R4/Condition?patient=${patient.id}&_count=abc`,
      `/fhir/R4/Condition?patient=${patient.id}&_count=0`,
      `/fhir/R4/Condition?patient=${patient.id}&_format=xml`,
      '/fhir/R4/Condition',
      '/fhir/R4/Condition?patient=Practitioner/1',
      '/fhir/R4/Patient?family=Shikongo',
      '/fhir/R4/Patient?identifier=urn:other|12345678901',
      `/fhir/R4/Observation?patient=${patient.id}&code=http://snomed.info/sct|1234`,
    ]) {
      const before = await auditCount();
      const res = await get(url);
      expect(res.status, url).toBe(400);
      expect(outcomeCode(expectValidFhir(res.body)).code).toBe('invalid');
      expect(await auditCount(), url).toBe(before);
    }
  });
});

describe('Patient', () => {
  it('reads a patient only with a live grant: 403 and no data without one, one VIEW row with one', async () => {
    const before = await auditCount();
    const refused = await get(`/fhir/R4/Patient/${other.id}`);
    expect(refused.status).toBe(403);
    expect(outcomeCode(expectValidFhir(refused.body)).code).toBe('forbidden');
    expect(JSON.stringify(refused.body)).not.toContain('Haufiku');
    expect(await auditCount()).toBe(before);

    const res = await get(`/fhir/R4/Patient/${patient.id}`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({
      resourceType: 'Patient',
      id: String(patient.id),
      identifier: [{ system: NC_NUMBER_SYSTEM, value: patient.idNumber }],
      name: [{ family: 'Shikongo', given: ['Ndapewa'] }],
      birthDate: '1984-03-09',
    });
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({ action: 'VIEW', resource_type: 'PATIENT', patient_id: patient.id, user_id: doctor.user.id });
    expect((await get('/fhir/R4/Patient/999999')).status).toBe(404);
    expect((await get('/fhir/R4/Patient/abc')).status).toBe(404);
  });

  it('searches by NC number, by family + birthdate and by name, each a searchset with total and a SEARCH row', async () => {
    for (const url of [
      `/fhir/R4/Patient?identifier=${encodeURIComponent(`${NC_NUMBER_SYSTEM}|${patient.idNumber}`)}`,
      `/fhir/R4/Patient?identifier=${patient.idNumber}`,
      '/fhir/R4/Patient?family=Shikongo&birthdate=1984-03-09',
      '/fhir/R4/Patient?name=Ndapewa%20Shikongo',
    ]) {
      const before = await auditCount();
      const res = await get(url);
      expect(res.status, url).toBe(200);
      expectValidFhir(res.body);
      expect(res.body).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      expect(res.body.total).toBeGreaterThanOrEqual(1);
      expect(entries(res.body)[0]!.resource.id).toBe(String(patient.id));
      expect(await auditCount()).toBe(before + 1);
      expect(await lastAudit()).toMatchObject({ action: 'SEARCH', resource_type: 'PATIENT' });
    }
  });

  it('matches with $match: each candidate with search.score and the match-grade extension', async () => {
    const res = await post('/fhir/R4/Patient/$match', {
      resourceType: 'Parameters',
      parameter: [
        {
          name: 'resource',
          resource: { resourceType: 'Patient', name: [{ family: 'Shikonga', given: ['Ndapewa'] }], birthDate: '1984-03-09' },
        },
        { name: 'count', valueInteger: 5 },
      ],
    });
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    const [best] = entries(res.body);
    expect(best!.resource.id).toBe(String(patient.id));
    expect(best!.search).toMatchObject({ mode: 'match', extension: [{ url: 'http://hl7.org/fhir/StructureDefinition/match-grade' }] });
    expect(['certain', 'probable', 'possible']).toContain((best!.search!.extension as { valueCode: string }[])[0]!.valueCode);
    expect(typeof best!.search!.score).toBe('number');

    const exact = await post('/fhir/R4/Patient/$match', {
      resourceType: 'Parameters',
      parameter: [
        { name: 'resource', resource: { resourceType: 'Patient', identifier: [{ system: NC_NUMBER_SYSTEM, value: patient.idNumber }] } },
      ],
    });
    expect(entries(expectValidFhir(exact.body))[0]!.search).toMatchObject({ score: 1, extension: [{ valueCode: 'certain' }] });
    const bad = await post('/fhir/R4/Patient/$match', { resourceType: 'Parameters', parameter: [{ name: 'limit', valueInteger: 5 }] });
    expect(bad.status).toBe(400);
    expectValidFhir(bad.body);
  });
});

describe('the record as resources', () => {
  const types = [
    ['Condition', 'diagnoses'],
    ['AllergyIntolerance', 'allergies'],
    ['MedicationStatement', 'medications'],
    ['Immunization', 'vaccines'],
    ['Appointment', 'appointments'],
  ] as const;

  it.each(types)('searches and reads %s by patient, with a grant, each call audited', async (type, kind) => {
    const before = await auditCount();
    const search = await get(`/fhir/R4/${type}?patient=Patient/${patient.id}`);
    expect(search.status).toBe(200);
    expectValidFhir(search.body);
    expect(search.body.total).toBe(1);
    expect(entries(search.body)[0]!.resource.id).toBe(String(ids[kind]));
    const read = await get(`/fhir/R4/${type}/${ids[kind]}`);
    expect(read.status).toBe(200);
    expectValidFhir(read.body);
    expect(await auditCount()).toBe(before + 2);
    expect(await lastAudit()).toMatchObject({ action: 'VIEW', patient_id: patient.id, resource_id: String(ids[kind]) });
  });

  it.each(types)('refuses %s of a patient without a grant: 403, no data, no row', async (type, kind) => {
    const before = await auditCount();
    for (const url of [`/fhir/R4/${type}?patient=${patient.id}`, `/fhir/R4/${type}/${ids[kind]}`]) {
      const res = await get(url, nurse.cookie);
      expect(res.status, url).toBe(403);
      expect(expectValidFhir(res.body).resourceType).toBe('OperationOutcome');
    }
    expect(await auditCount()).toBe(before);
  });

  it('pages with _count and _offset, with next and previous links', async () => {
    await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/diagnoses`,
      headers: { cookie: doctor.cookie },
      payload: { ...SAMPLE_INPUTS.diagnoses, condition: 'Hypertension', status: 'Resolved', resolvedDate: '2024-08-01' },
    });
    const first = await get(`/fhir/R4/Condition?patient=${patient.id}&_count=1`);
    expectValidFhir(first.body);
    expect(first.body.total).toBe(2);
    expect(entries(first.body)).toHaveLength(1);
    const links = first.body.link as { relation: string; url: string }[];
    const next = links.find((l) => l.relation === 'next')!.url;
    const second = await get(new URL(next).pathname + new URL(next).search);
    expect(entries(expectValidFhir(second.body))).toHaveLength(1);
    expect(entries(second.body)[0]!.resource.id).not.toBe(entries(first.body)[0]!.resource.id);
    expect((second.body.link as { relation: string }[]).map((l) => l.relation)).toContain('previous');
  });

  it('gives vital signs as Observations in the vital-signs profiles, searchable by LOINC code', async () => {
    const all = await get(`/fhir/R4/Observation?patient=${patient.id}&category=vital-signs`);
    expectValidFhir(all.body);
    expect(entries(all.body).map((e) => e.resource.id)).toEqual([`${ids.vitals}-bp`, `${ids.vitals}-temperature`, `${ids.vitals}-weight`]);
    const bp = entries(all.body)[0]!.resource;
    expect(bp).toMatchObject({
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      component: [
        { code: { coding: [{ code: '8480-6' }] }, valueQuantity: { value: 128, code: 'mm[Hg]' } },
        { code: { coding: [{ code: '8462-4' }] }, valueQuantity: { value: 84, code: 'mm[Hg]' } },
      ],
    });
    const temperature = await get(`/fhir/R4/Observation?patient=${patient.id}&code=http://loinc.org|8310-5`);
    expect(entries(expectValidFhir(temperature.body)).map((e) => e.resource.valueQuantity)).toEqual([
      { value: 36.8, unit: 'C', system: 'http://unitsofmeasure.org', code: 'Cel' },
    ]);
    expectValidFhir((await get(`/fhir/R4/Observation/${ids.vitals}-weight`)).body);
    expect((await get(`/fhir/R4/Observation/${ids.vitals}-height`)).status).toBe(404);
  });

  it('answers the patient summary as an IPS document Bundle, one audited read', async () => {
    const before = await auditCount();
    const res = await get(`/fhir/R4/Patient/${patient.id}/$summary`);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(res.body).toMatchObject({ resourceType: 'Bundle', type: 'document' });
    const [composition, subject] = entries(res.body).map((e) => e.resource);
    expect(composition).toMatchObject({ resourceType: 'Composition', type: { coding: [{ code: '60591-5' }] } });
    expect(subject).toMatchObject({ resourceType: 'Patient', id: String(patient.id) });
    expect((composition!.section as { title: string }[]).map((s) => s.title)).toContain('Allergies and intolerances');
    expect(await auditCount()).toBe(before + 1);
    expect((await get(`/fhir/R4/Patient/${other.id}/$summary`)).status).toBe(403);
  });

  it("gives an auditor a patient's access history as AuditEvents; a doctor without audit.read is refused", async () => {
    const res = await get(`/fhir/R4/AuditEvent?patient=${patient.id}`, auditor.cookie);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(entries(res.body).length).toBeGreaterThan(5);
    expect(res.body.total).toBeUndefined();
    expect(await lastAudit()).toMatchObject({ action: 'VIEW', resource_type: 'AUDIT_LOG', user_id: auditor.user.id });
    expect((await get(`/fhir/R4/AuditEvent?patient=${patient.id}`)).status).toBe(403);
  });
});

describe('creates', () => {
  const subject = () => ({ reference: `Patient/${patient.id}` });
  const bodies: Record<string, Json> = {
    Condition: {
      resourceType: 'Condition',
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
      code: { text: 'Asthma' },
      subject: {},
      onsetDateTime: '2022-01-15',
      asserter: { display: 'Dr. Selma Nangolo' },
    },
    AllergyIntolerance: {
      resourceType: 'AllergyIntolerance',
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', code: 'active' }] },
      code: { text: 'Peanuts' },
      patient: {},
      recordedDate: '2021-06-01',
      reaction: [{ manifestation: [{ text: 'Anaphylaxis' }], severity: 'severe' }],
    },
    MedicationStatement: {
      resourceType: 'MedicationStatement',
      status: 'active',
      medicationCodeableConcept: { text: 'Salbutamol inhaler' },
      subject: {},
      effectivePeriod: { start: '2022-01-15' },
      reasonCode: [{ text: 'Asthma' }],
      dosage: [{ text: '2 puffs, when needed' }],
    },
    Immunization: {
      resourceType: 'Immunization',
      status: 'completed',
      vaccineCode: { text: 'Measles-rubella' },
      patient: {},
      occurrenceDateTime: '2020-09-01',
      protocolApplied: [{ doseNumberString: '2' }],
      location: { display: 'Rundu State Hospital' },
      lotNumber: 'MR-2020-77',
    },
    Observation: {
      resourceType: 'Observation',
      status: 'final',
      category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
      code: { coding: [{ system: 'http://loinc.org', code: '85354-9' }] },
      subject: {},
      effectiveDateTime: '2024-05-02T08:15:00+02:00',
      component: [
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8480-6' }] },
          valueQuantity: { value: 142, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
        {
          code: { coding: [{ system: 'http://loinc.org', code: '8462-4' }] },
          valueQuantity: { value: 91, unit: 'mmHg', system: 'http://unitsofmeasure.org', code: 'mm[Hg]' },
        },
      ],
    },
  };
  const withPatient = (type: string, patientId: number): Json => {
    const field = type === 'AllergyIntolerance' || type === 'Immunization' ? 'patient' : 'subject';
    return { ...bodies[type]!, [field]: { reference: `Patient/${patientId}` } };
  };

  it.each(Object.keys(bodies))('creates a %s onto the record: 201, Location, the stored row and its CREATE row', async (type) => {
    const before = await auditCount();
    expectValidFhir(withPatient(type, patient.id));
    const res = await post(`/fhir/R4/${type}`, withPatient(type, patient.id));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectValidFhir(res.body);
    expect(res.location).toMatch(new RegExp(`/fhir/R4/${type}/${res.body.id as string}$`));
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({ action: 'CREATE', patient_id: patient.id, user_id: doctor.user.id });
    const path = new URL(res.location!).pathname;
    expect(expectValidFhir((await get(path)).body)).toMatchObject({ id: res.body.id });
    expect(subject()).toBeTruthy();
  });

  it('refuses a resource missing what the record requires with 400 naming the element, and stores nothing', async () => {
    const counts = async () => (await queryRows(t.db, sql`SELECT 1 FROM diagnoses`)).length;
    const stored = await counts();
    const before = await auditCount();
    const { code: _code, ...noCode } = withPatient('Condition', patient.id);
    const res = await post('/fhir/R4/Condition', noCode);
    expect(res.status).toBe(400);
    expectValidFhir(res.body);
    expect((res.body.issue as { expression?: string[] }[]).flatMap((i) => i.expression ?? [])).toContain('Condition.code');
    for (const bad of [
      { resourceType: 'Patient' },
      { ...withPatient('Condition', patient.id), subject: { reference: 'Group/1' } },
      'not json at all',
    ]) {
      expect((await post('/fhir/R4/Condition', bad)).status).toBe(400);
    }
    const fever = {
      ...withPatient('Observation', patient.id),
      code: { coding: [{ system: 'http://loinc.org', code: '8310-5' }] },
      component: undefined,
      valueQuantity: { value: 99, code: '[degF]' },
    };
    // A value the record cannot hold (a temperature in Fahrenheit) is 422 naming it (decision 049).
    const refusedFever = await post('/fhir/R4/Observation', fever);
    expect(refusedFever.status).toBe(422);
    expect((refusedFever.body.issue as { expression?: string[] }[]).flatMap((i) => i.expression ?? [])).toContain(
      'Observation.valueQuantity.code',
    );
    expect(await counts()).toBe(stored);
    expect(await auditCount()).toBe(before);
  });

  it('refuses a create for a patient without a grant (403) and one by a role without records.write', async () => {
    const before = await auditCount();
    expect((await post('/fhir/R4/Condition', withPatient('Condition', other.id))).status).toBe(403);
    expect((await post('/fhir/R4/Condition', withPatient('Condition', patient.id), auditor.cookie)).status).toBe(403);
    expect(await auditCount()).toBe(before);
  });
});

describe('system clients (bearer tokens, decision 020)', () => {
  it('reads only within its scopes and only after confirming access, each step audited under the client', async () => {
    // A creator holding what the client is given (issue 21 item 5: an administrator of role 2 may not).
    const { token, userId } = await createSystemClient(t, 'Oshakati Lab', ['system/Patient.read', 'system/Condition.read']);
    const asClient = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/fhir+json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, body: res.json<Json>() };
    };

    const before = await asClient('GET', `/fhir/R4/Condition?patient=${patient.id}`);
    expect(before.status).toBe(403);
    expect(outcomeCode(expectValidFhir(before.body)).details.coding[0]!.code).toBe('ACCESS_GRANT_REQUIRED');

    const consent = { resourceType: 'Parameters', parameter: [{ name: 'consent', valueBoolean: true }] };
    const granted = await asClient('POST', `/fhir/R4/Patient/${patient.id}/$access`, consent);
    expect(granted.status).toBe(201);
    expectValidFhir(granted.body);
    expect(await lastAudit()).toMatchObject({ action: 'VIEW', user_id: userId, user_name: 'Oshakati Lab', patient_id: patient.id });

    const conditions = await asClient('GET', `/fhir/R4/Condition?patient=${patient.id}`);
    expect(conditions.status).toBe(200);
    expect(expectValidFhir(conditions.body).total).toBeGreaterThan(0);
    expect(await lastAudit()).toMatchObject({ action: 'VIEW', resource_type: 'DIAGNOSIS', user_id: userId });

    const allergies = await asClient('GET', `/fhir/R4/AllergyIntolerance?patient=${patient.id}`);
    expect(allergies.status).toBe(403);
    expect(outcomeCode(expectValidFhir(allergies.body)).details.coding[0]!.code).toBe('SCOPE_NOT_GRANTED');
    const create = await asClient('POST', '/fhir/R4/Condition', withPatientFor('Condition', patient.id));
    expect(create.status).toBe(403);
    expect((await asClient('GET', `/fhir/R4/Condition?patient=${patient.id}`)).status).toBe(200);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/patients/${patient.id}`, headers: { authorization: `Bearer ${token}` } })).statusCode,
    ).toBe(401);
  });
  it('$summary holds only the resource types the client is scoped to read (issue 21 item 4); other sections are withheld', async () => {
    const { token } = await createSystemClient(t, 'Rundu Registry', ['system/Patient.read']);
    const asClient = async (method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/fhir+json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, body: res.json<Json>() };
    };
    const consent = { resourceType: 'Parameters', parameter: [{ name: 'consent', valueBoolean: true }] };
    expect((await asClient('POST', `/fhir/R4/Patient/${patient.id}/$access`, consent)).status).toBe(201);
    expect((await asClient('GET', `/fhir/R4/Condition?patient=${patient.id}`)).status).toBe(403);

    const summary = await asClient('GET', `/fhir/R4/Patient/${patient.id}/$summary`);
    expect(summary.status).toBe(200);
    expectValidFhir(summary.body);
    const types = entries(summary.body).map((e) => e.resource.resourceType);
    expect(types.sort()).toEqual(['Composition', 'Patient']);
    const composition = entries(summary.body)[0]!.resource as unknown as {
      section: { emptyReason?: { coding: { code: string }[] }; entry?: unknown[] }[];
    };
    expect(composition.section.map((s) => s.emptyReason?.coding[0]?.code)).toEqual(Array(7).fill('withheld'));
    expect(JSON.stringify(summary.body)).not.toContain('Type 2 diabetes');
    // No search pulls other types in beside its own: _include and _revinclude are refused, not ignored.
    for (const extra of ['_include=Patient:general-practitioner', '_revinclude=Condition:patient']) {
      const res = await asClient('GET', `/fhir/R4/Patient?identifier=${patient.idNumber}&${extra}`);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).not.toContain('Type 2 diabetes');
    }

    // The doctor's own session (no client scopes) still gets the whole summary.
    const whole = await get(`/fhir/R4/Patient/${patient.id}/$summary`);
    expect(whole.status).toBe(200);
    expect(new Set(entries(whole.body).map((e) => e.resource.resourceType))).toEqual(
      new Set(['Composition', 'Patient', 'Condition', 'AllergyIntolerance', 'MedicationStatement', 'Immunization', 'Observation']),
    );
  });
});

const withPatientFor = (type: string, patientId: number): Json => ({
  resourceType: type,
  clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
  code: { text: 'Malaria' },
  subject: { reference: `Patient/${patientId}` },
  onsetDateTime: '2024-02-01',
});
