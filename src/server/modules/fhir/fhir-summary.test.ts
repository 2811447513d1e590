// A readable International Patient Summary (issue 26 item 7; decision 053) through the real app and database: each
// section's narrative lists its entries (term, status, dates, dose) in the reader's language, escaped XHTML; resolved
// problems in History of past illness; no appointments; an empty section says there is no information (never "no
// known allergies"); $summary by identifier and by POST (Parameters). Every answer validates against the official R4
// definitions; refusals are 4xx that write nothing; the wrong caller is refused on every new route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { expectValidFhir } from '../../test/fhir-validator';
import { createSystemClient } from '../../test/api-client-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne } from '../../test/sql';
import { signInAs, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { NC_NUMBER_SYSTEM } from '../../fhir/resources';

let t: TestApp;
let doctor: { cookie: string; user: StaffUser };
let auditor: { cookie: string; user: StaffUser };
let patient: TestPatient;
let empty: TestPatient;
let other: TestPatient;

type Json = Record<string, unknown> & { resourceType: string };
interface Section {
  title: string;
  code: { coding: { code: string }[] };
  text: { status: string; div: string };
  entry?: { reference: string }[];
  emptyReason?: { coding: { system: string; code: string }[]; text?: string };
}

async function request(
  method: 'GET' | 'POST',
  url: string,
  options: { cookie?: string; body?: unknown; language?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json }> {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      ...(options.cookie === '' ? {} : { cookie: options.cookie ?? doctor.cookie }),
      ...(options.language ? { 'accept-language': options.language } : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/fhir+json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
  });
  return { status: res.statusCode, body: res.json<Json>() };
}
const summaryOf = async (patientId: number, language?: string) => {
  const res = await request('GET', `/fhir/R4/Patient/${patientId}/$summary`, { language });
  expect(res.status).toBe(200);
  return expectValidFhir(res.body);
};
const entries = (bundle: Json) => (bundle.entry as { resource: Json }[] | undefined) ?? [];
const sectionsOf = (bundle: Json) => entries(bundle)[0]!.resource.section as Section[];
const section = (bundle: Json, loinc: string) => sectionsOf(bundle).find((s) => s.code.coding[0]!.code === loinc);
const auditCount = async () => Number((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n);
const parameters = (...parameter: Record<string, unknown>[]) => ({ resourceType: 'Parameters', parameter });

const PROBLEMS = '11450-4';
const PAST_ILLNESS = '11348-0';
const ALLERGIES = '48765-2';
const MEDICATIONS = '10160-0';
const IMMUNIZATIONS = '11369-6';
const VITALS = '8716-3';

async function add(kind: string, body: Record<string, unknown>): Promise<number> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/patients/${patient.id}/${kind}`,
    headers: { cookie: doctor.cookie },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: number }>().id;
}

beforeAll(async () => {
  t = await createTestApp();
  doctor = await signInAs(t, 3);
  auditor = await signInAs(t, 6);
  patient = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: '1984-03-09' });
  empty = await createPatient(t.db, { firstName: 'Selma', lastName: 'Nangolo' });
  other = await createPatient(t.db, { firstName: 'Johannes', lastName: 'Haufiku' });
  for (const p of [patient, empty])
    await t.app.inject({
      method: 'POST',
      url: `/api/patients/${p.id}/access`,
      headers: { cookie: doctor.cookie },
      payload: { consent: true },
    });
  await add('diagnoses', SAMPLE_INPUTS.diagnoses);
  await add('diagnoses', {
    ...SAMPLE_INPUTS.diagnoses,
    condition: 'Tuberculosis',
    status: 'Resolved',
    diagnosedDate: '2019-04-01',
    resolvedDate: '2019-10-15',
  });
  await add('allergies', { ...SAMPLE_INPUTS.allergies, allergen: 'Shellfish <prawns> "mixed" & crab', severity: 'Mild' });
  await add('allergies', SAMPLE_INPUTS.allergies);
  await add('medications', SAMPLE_INPUTS.medications);
  await add('vaccines', SAMPLE_INPUTS.vaccines);
  await add('vitals', SAMPLE_INPUTS.vitals);
  await add('appointments', SAMPLE_INPUTS.appointments);
  await add('appointments', { ...SAMPLE_INPUTS.appointments, date: '2099-01-10', status: 'Scheduled', findings: '' });
});
afterAll(async () => {
  await t?.close();
});

describe('the narrative', () => {
  it('lists each section’s entries: term, status, dates and dose, as escaped XHTML', async () => {
    const bundle = await summaryOf(patient.id);
    const problems = section(bundle, PROBLEMS)!;
    expect(problems.title).toBe('Problem list');
    expect(problems.text.status).toBe('generated');
    expect(problems.text.div).toMatch(/^<div xmlns="http:\/\/www\.w3\.org\/1999\/xhtml">.*<\/div>$/);
    expect(problems.text.div).toContain('<td>Type 2 diabetes mellitus</td><td>Active</td><td>since 2024-05-02</td>');
    // Text is escaped, never markup.
    const allergyDiv = section(bundle, ALLERGIES)!.text.div;
    expect(allergyDiv).toContain('Shellfish &#60;prawns&#62; &#34;mixed&#34; &#38; crab');
    expect(allergyDiv).not.toContain('<prawns>');
    expect(problems.text.div).not.toMatch(/entries|entry/);

    const medications = section(bundle, MEDICATIONS)!;
    expect(medications.text.div).toContain(
      '<td>Metformin</td><td>Active</td><td>since 2024-05-02</td><td>Dose: 500mg daily, Twice daily</td>',
    );
    const immunizations = section(bundle, IMMUNIZATIONS)!;
    expect(immunizations.text.div).toContain('<td>Tetanus toxoid</td><td>Completed</td><td>2023-02-14</td><td>Dose: Booster</td>');
    const allergies = section(bundle, ALLERGIES)!;
    expect(allergies.text.div).toContain('Penicillin');
    expect(allergies.text.div).toContain('Reaction: Hives and swelling (Severe)');
    expect(section(bundle, VITALS)!.text.div).toContain('36.8 C');
    // Every entry carries its version (decision 053); the Patient its last change.
    const [composition, subject, ...record] = entries(bundle).map((e) => e.resource);
    expect(composition!.meta).toMatchObject({ lastUpdated: expect.any(String) });
    expect(subject!.meta).toMatchObject({ lastUpdated: expect.any(String) });
    for (const r of record) expect(r.meta, `${r.resourceType}/${r.id}`).toMatchObject({ versionId: '1', lastUpdated: expect.any(String) });
  });

  it('puts resolved problems in History of past illness and active ones in the Problem list', async () => {
    const bundle = await summaryOf(patient.id);
    const resources = new Map(entries(bundle).map((e) => [`${e.resource.resourceType}/${e.resource.id}`, e.resource]));
    const codes = (s: Section | undefined) => (s?.entry ?? []).map((e) => (resources.get(e.reference)!.code as { text: string }).text);
    expect(codes(section(bundle, PROBLEMS))).toEqual(expect.arrayContaining(['Type 2 diabetes mellitus']));
    expect(codes(section(bundle, PROBLEMS))).not.toContain('Tuberculosis');
    expect(codes(section(bundle, PAST_ILLNESS))).toEqual(['Tuberculosis']);
    const past = section(bundle, PAST_ILLNESS)!;
    expect(past.title).toBe('History of past illness');
    expect(past.text.div).toContain('<td>Tuberculosis</td><td>Resolved</td><td>since 2019-04-01 until 2019-10-15</td>');
  });

  it('leaves appointments out: no IPS section holds them', async () => {
    const bundle = await summaryOf(patient.id);
    expect(entries(bundle).map((e) => e.resource.resourceType)).not.toContain('Appointment');
    expect(section(bundle, '18776-5')).toBeUndefined();
    expect(JSON.stringify(bundle)).not.toContain('Follow-up consultation');
  });

  it('says "no information" for an empty record, never "no known allergies"', async () => {
    const bundle = await summaryOf(empty.id);
    const allergies = section(bundle, ALLERGIES)!;
    expect(allergies.entry).toBeUndefined();
    expect(allergies.emptyReason!.coding).toEqual([
      { system: 'http://terminology.hl7.org/CodeSystem/list-empty-reason', code: 'unavailable' },
    ]);
    expect(allergies.text.div).toContain('No information about allergies');
    expect(JSON.stringify(bundle).toLowerCase()).not.toContain('no known');
    expect(JSON.stringify(bundle)).not.toContain('nilknown');
    // The IPS's required sections stand, each saying it has no information.
    for (const code of [PROBLEMS, ALLERGIES, MEDICATIONS]) expect(section(bundle, code)!.emptyReason!.coding[0]!.code).toBe('unavailable');
  });

  it('is written in the reader’s language: Afrikaans, Oshiwambo (Ndonga), English otherwise', async () => {
    const af = await summaryOf(patient.id, 'af-ZA,af;q=0.9,en;q=0.5');
    expect(entries(af)[0]!.resource.language).toBe('af');
    expect(section(af, PROBLEMS)!.title).toBe('Probleemlys');
    expect(section(af, PROBLEMS)!.text.div).toContain('<td>Type 2 diabetes mellitus</td><td>Aktief</td><td>sedert 2024-05-02</td>');
    expect(section(af, PAST_ILLNESS)!.text.div).toContain('<td>Opgelos</td>');
    expect(section(af, MEDICATIONS)!.text.div).toContain('Dosis: 500mg daily');
    const ng = await summaryOf(patient.id, 'ng');
    expect(entries(ng)[0]!.resource.language).toBe('ng');
    expect(section(ng, PROBLEMS)!.text.div).toContain('<td>Oshili po</td>');
    expect(section(ng, IMMUNIZATIONS)!.text.div).toContain('Omutsimo: Booster');
    const emptyNg = await summaryOf(empty.id, 'ng');
    expect(section(emptyNg, ALLERGIES)!.text.div).toContain('Kapu na uuyelele kombinga yomaalergi');
    const fallback = await summaryOf(patient.id, 'fr-FR');
    expect(section(fallback, PROBLEMS)!.title).toBe('Problem list');
  });
});

describe('the IPS document rules our Bundle touches (the IPS profiles are not in the repository: decision 053)', () => {
  it('has the Composition first, each section titled, LOINC-coded, narrated, with entries or an empty reason, every reference in the Bundle', async () => {
    for (const p of [patient, empty]) {
      const bundle = await summaryOf(p.id);
      const [composition, subject] = entries(bundle).map((e) => e.resource);
      expect(composition).toMatchObject({ resourceType: 'Composition', status: 'final', subject: { reference: `Patient/${p.id}` } });
      expect(subject).toMatchObject({ resourceType: 'Patient', id: String(p.id) });
      const inBundle = new Set(entries(bundle).map((e) => `${e.resource.resourceType}/${e.resource.id}`));
      const urls = entries(bundle).map((e) => (e as unknown as { fullUrl: string }).fullUrl);
      expect(new Set(urls).size).toBe(urls.length);
      // The Problem list, Allergies and Medication summary are required in an IPS.
      expect(sectionsOf(bundle).map((s) => s.code.coding[0]!.code)).toEqual(expect.arrayContaining([PROBLEMS, ALLERGIES, MEDICATIONS]));
      for (const s of sectionsOf(bundle)) {
        expect(s.title).toBeTruthy();
        expect(s.code.coding[0]).toMatchObject({ system: 'http://loinc.org' });
        expect(s.text.status).toBe('generated');
        expect(s.text.div).toMatch(
          /^<div xmlns="http:\/\/www\.w3\.org\/1999\/xhtml">(<p>[^<>]*<\/p>|<table><thead>.*<\/thead><tbody>.*<\/tbody><\/table>)<\/div>$/,
        );
        expect(Boolean(s.entry?.length) !== Boolean(s.emptyReason), s.title).toBe(true);
        for (const e of s.entry ?? []) expect(inBundle.has(e.reference), e.reference).toBe(true);
      }
    }
  });
});

describe('$summary by identifier and by POST', () => {
  it('answers GET Patient/$summary?identifier=, POST Patient/$summary and POST Patient/{id}/$summary alike, each audited', async () => {
    const before = await auditCount();
    const byIdentifier = await request(
      'GET',
      `/fhir/R4/Patient/$summary?identifier=${encodeURIComponent(`${NC_NUMBER_SYSTEM}|${patient.idNumber}`)}`,
    );
    expect(byIdentifier.status).toBe(200);
    expectValidFhir(byIdentifier.body);
    expect(entries(byIdentifier.body)[1]!.resource).toMatchObject({ resourceType: 'Patient', id: String(patient.id) });
    // The look-up by NC number is the staff's audited search, then the record open.
    expect(await auditCount()).toBe(before + 2);

    const posted = await request('POST', '/fhir/R4/Patient/$summary', {
      body: parameters({ name: 'identifier', valueIdentifier: { system: NC_NUMBER_SYSTEM, value: patient.idNumber } }),
    });
    expect(posted.status).toBe(200);
    expect(entries(expectValidFhir(posted.body))[1]!.resource.id).toBe(String(patient.id));

    const byId = await request('POST', `/fhir/R4/Patient/${patient.id}/$summary`, {
      body: parameters({ name: 'profile', valueCanonical: 'http://hl7.org/fhir/uv/ips/StructureDefinition/Bundle-uv-ips' }),
    });
    expect(byId.status).toBe(200);
    expect(sectionsOf(expectValidFhir(byId.body)).length).toBe(sectionsOf(posted.body).length);
    const noParameters = await request('POST', `/fhir/R4/Patient/${patient.id}/$summary`, { body: { resourceType: 'Parameters' } });
    expect(noParameters.status).toBe(200);
    const withProfile = `/fhir/R4/Patient/${patient.id}/$summary?profile=${encodeURIComponent('http://hl7.org/fhir/uv/ips/StructureDefinition/Bundle-uv-ips')}`;
    expect((await request('GET', withProfile)).status).toBe(200);
  });

  it('refuses bad requests with 400 and an unknown identifier with 404, writing no audit row', async () => {
    const before = await auditCount();
    for (const [method, url, body] of [
      ['GET', '/fhir/R4/Patient/$summary', undefined],
      ['GET', `/fhir/R4/Patient/$summary?identifier=${patient.idNumber}&identifier=${patient.idNumber}`, undefined],
      ['GET', `/fhir/R4/Patient/$summary?identifier=${patient.idNumber}&_count=1`, undefined],
      ['GET', `/fhir/R4/Patient/$summary?identifier=urn:other|${patient.idNumber}`, undefined],
      ['GET', '/fhir/R4/Patient/$summary?identifier=12ab', undefined],
      ['GET', `/fhir/R4/Patient/$summary?identifier=${patient.idNumber}&profile=http://example.org/other`, undefined],
      ['POST', '/fhir/R4/Patient/$summary', parameters()],
      ['POST', '/fhir/R4/Patient/$summary', parameters({ name: 'identifier' })],
      ['POST', '/fhir/R4/Patient/$summary', parameters({ name: 'patient', valueString: patient.idNumber })],
      ['POST', '/fhir/R4/Patient/$summary', { resourceType: 'Patient' }],
      ['POST', `/fhir/R4/Patient/${patient.id}/$summary`, parameters({ name: 'identifier', valueString: patient.idNumber })],
      ['POST', `/fhir/R4/Patient/${patient.id}/$summary`, { resourceType: 'Parameters', parameter: 'x' }],
      ['GET', `/fhir/R4/Patient/${patient.id}/$summary?identifier=${patient.idNumber}`, undefined],
      ['GET', `/fhir/R4/Patient/${patient.id}/$summary?_format=xml`, undefined],
      ['GET', `/fhir/R4/Patient/${patient.id}/$summary?profile=http://example.org/other`, undefined],
    ] as const) {
      const res = await request(method, url, body === undefined ? {} : { body });
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(expectValidFhir(res.body).resourceType).toBe('OperationOutcome');
    }
    expect(await auditCount()).toBe(before);
    const unknown = await request('GET', '/fhir/R4/Patient/$summary?identifier=12345678903');
    expect(unknown.status).toBe(404);
  });

  it('refuses the wrong caller on every form: no grant, no records.read, signed out, a client without Patient.read', async () => {
    const byIdentifier = `/fhir/R4/Patient/$summary?identifier=${other.idNumber}`;
    const byPost = parameters({ name: 'identifier', valueString: `${NC_NUMBER_SYSTEM}|${other.idNumber}` });
    for (const res of [
      await request('GET', byIdentifier),
      await request('POST', '/fhir/R4/Patient/$summary', { body: byPost }),
      await request('POST', `/fhir/R4/Patient/${other.id}/$summary`, { body: parameters() }),
    ]) {
      expect(res.status).toBe(403);
      expect(JSON.stringify(res.body)).not.toContain('Haufiku');
    }
    const mine = `/fhir/R4/Patient/$summary?identifier=${patient.idNumber}`;
    expect((await request('GET', mine, { cookie: auditor.cookie })).status).toBe(403);
    expect((await request('POST', `/fhir/R4/Patient/${patient.id}/$summary`, { cookie: auditor.cookie, body: parameters() })).status).toBe(
      403,
    );
    expect((await request('GET', mine, { cookie: '' })).status).toBe(401);
    expect((await request('POST', '/fhir/R4/Patient/$summary', { cookie: '', body: byPost })).status).toBe(401);

    const { bearer } = await createSystemClient(t, 'Rundu Registry', ['system/Condition.read']);
    const res = await request('POST', `/fhir/R4/Patient/${patient.id}/$summary`, { cookie: '', body: parameters(), headers: bearer });
    expect(res.status).toBe(403);
    expect((await request('GET', mine, { cookie: '', headers: bearer })).status).toBe(403);
  });
});
