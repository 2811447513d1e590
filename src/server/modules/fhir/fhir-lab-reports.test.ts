// Laboratory reports and conditional create (issue 26 items 2 and 3, decision 049) through the real app: a
// DiagnosticReport groups laboratory Observations already on the record, is read and searched by patient, code, date,
// category and status, and is refused (changing nothing) for results it cannot group; its routes hold the access rules
// (signed out, no records.write, no grant, a system client without the scope). If-None-Exist answers a retry with the
// entry already stored (200, no second row) and refuses an ambiguous one (412). Every resource validates (R4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { LOINC_SYSTEM } from '../../../contracts/codes';
import { signInAsClientCreator } from '../../test/api-client-fixtures';
import { expectValidFhir } from '../../test/fhir-validator';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess } from '../../test/record-api';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

type Json = Record<string, unknown> & { resourceType: string };
let t: TestApp;
let doctor: string;
let auditor: string;
let patient: TestPatient;
let other: TestPatient;
const labIds: string[] = [];

const UCUM = 'http://unitsofmeasure.org';
const OBS_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const V2_0074 = 'http://terminology.hl7.org/CodeSystem/v2-0074';

const call = async (method: 'GET' | 'POST', url: string, body?: unknown, headers: Record<string, string> = {}, cookie = doctor) => {
  const res = await t.app.inject({
    method,
    url,
    headers: { ...(cookie ? { cookie } : {}), ...(body ? { 'content-type': 'application/fhir+json' } : {}), ...headers },
    ...(body ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: res.statusCode, location: res.headers.location, body: res.json<Json>() };
};
const entries = (bundle: Json) => ((bundle.entry as { resource: Json }[] | undefined) ?? []).map((e) => e.resource);
const labRows = async () => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM lab_results`))!.n;
const versions = async () => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM record_versions`))!.n;

const labResult = (patientId: number, code: string, text: string, value: number, unit: string, date: string): Json => ({
  resourceType: 'Observation',
  status: 'final',
  category: [{ coding: [{ system: OBS_CATEGORY, code: 'laboratory' }] }],
  code: { coding: [{ system: LOINC_SYSTEM, code }], text },
  subject: { reference: `Patient/${patientId}` },
  effectiveDateTime: date,
  valueQuantity: { value, unit, system: UCUM, code: unit },
});
const report = (results: string[], patientId = patient.id, extra: Record<string, unknown> = {}): Json => ({
  resourceType: 'DiagnosticReport',
  status: 'final',
  category: [{ coding: [{ system: V2_0074, code: 'LAB' }] }],
  code: { coding: [{ system: LOINC_SYSTEM, code: '58410-2', display: 'CBC panel - Blood by Automated count' }], text: 'Full blood count' },
  subject: { reference: `Patient/${patientId}` },
  effectiveDateTime: '2024-07-02',
  performer: [{ display: 'Namibia Institute of Pathology, Windhoek' }],
  result: results.map((id) => ({ reference: `Observation/${id}` })),
  conclusion: 'Mild anaemia; white cells and platelets normal.',
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp();
  doctor = (await signInAs(t, 3)).cookie;
  auditor = (await signInAs(t, 6)).cookie;
  patient = await createPatient(t.db);
  other = await createPatient(t.db);
  await confirmAccess(t, doctor, patient.id);
  await confirmAccess(t, doctor, other.id);
  for (const [code, text, value, unit] of [
    ['718-7', 'Haemoglobin', 11.2, 'g/dL'],
    ['6690-2', 'White cell count', 7.1, '10*3/uL'],
    ['777-3', 'Platelets', 250, '10*3/uL'],
  ] as const) {
    const res = await call('POST', '/fhir/R4/Observation', labResult(patient.id, code, text, value, unit, '2024-07-02'));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    labIds.push(res.body.id as string);
  }
});
afterAll(async () => {
  await t?.close();
});

describe('DiagnosticReport', () => {
  let reportId: string;

  it('groups laboratory results: 201, Location, every element read back as sent, each result one new version', async () => {
    const sent = expectValidFhir(report(labIds));
    const before = { versions: await versions(), audit: await auditCount(t) };
    const res = await call('POST', '/fhir/R4/DiagnosticReport', sent);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expectValidFhir(res.body);
    reportId = res.body.id as string;
    expect(reportId).toBe(`report-${labIds[0]!.slice(4)}`);
    expect(res.location).toMatch(new RegExp(`/fhir/R4/DiagnosticReport/${reportId}$`));
    expect(await versions()).toBe(before.versions + 3);
    expect(await auditCount(t)).toBe(before.audit + 3);
    const read = await call('GET', `/fhir/R4/DiagnosticReport/${reportId}`);
    expect(read.status).toBe(200);
    expectValidFhir(read.body);
    for (const [element, value] of Object.entries(sent)) {
      if (typeof value === 'object') expect(read.body[element], element).toMatchObject(value as object);
      else expect(read.body[element], element).toBe(value);
    }
    // The results themselves are unchanged.
    const hb = await call('GET', `/fhir/R4/Observation/${labIds[0]}`);
    expect(expectValidFhir(hb.body)).toMatchObject({ status: 'final', valueQuantity: { value: 11.2, code: 'g/dL' } });
  });

  it('is searched by patient, code, date, category and status', async () => {
    const found = async (query: string) => {
      const res = await call('GET', `/fhir/R4/DiagnosticReport?patient=${patient.id}${query}`);
      expect(res.status, query).toBe(200);
      return entries(expectValidFhir(res.body)).map((r) => r.id);
    };
    expect(await found('')).toEqual([reportId]);
    expect(await found(`&code=${encodeURIComponent(`${LOINC_SYSTEM}|58410-2`)}`)).toEqual([reportId]);
    expect(await found('&code=718-7')).toEqual([]);
    expect(await found('&date=ge2024-07-01&date=le2024-07-31')).toEqual([reportId]);
    expect(await found('&date=2023')).toEqual([]);
    expect(await found('&category=LAB')).toEqual([reportId]);
    expect(await found('&status=final,corrected')).toEqual([reportId]);
    expect(await found('&status=preliminary')).toEqual([]);
    expect((await call('GET', `/fhir/R4/DiagnosticReport?patient=${patient.id}&category=RAD`)).status).toBe(400);
    expect((await call('GET', `/fhir/R4/DiagnosticReport?patient=${patient.id}&status=done`)).status).toBe(400);
    expect((await call('GET', '/fhir/R4/DiagnosticReport/report-2000000000')).status).toBe(404);
  });

  it('is in the CapabilityStatement with create and its search parameters', async () => {
    const res = await call('GET', '/fhir/R4/metadata', undefined, {}, '');
    const resource = (
      expectValidFhir(res.body).rest as { resource: { type: string; interaction: { code: string }[]; searchParam: { name: string }[] }[] }[]
    )[0]!.resource.find((r) => r.type === 'DiagnosticReport')!;
    expect(resource.interaction.map((i) => i.code)).toEqual(expect.arrayContaining(['read', 'search-type', 'create']));
    expect(resource).toMatchObject({ conditionalCreate: true });
    expect(resource.searchParam.map((p) => p.name)).toEqual(expect.arrayContaining(['patient', 'code', 'date', 'category', 'status']));
  });

  it('refuses results it cannot group, changing nothing: another patient, not a laboratory result, already reported, an element it cannot hold', async () => {
    const extra = await call('POST', '/fhir/R4/Observation', labResult(other.id, '718-7', 'Haemoglobin', 13, 'g/dL', '2024-07-03'));
    expect(extra.status).toBe(201);
    const free = await call('POST', '/fhir/R4/Observation', labResult(patient.id, '2345-7', 'Glucose', 95, 'mg/dL', '2024-07-04'));
    expect(free.status).toBe(201);
    const before = { versions: await versions(), audit: await auditCount(t), rows: await labRows() };
    const cases: [Json, number, string][] = [
      [report([extra.body.id as string]), 400, 'DiagnosticReport.result'],
      [report(['123-bp']), 400, 'DiagnosticReport.result[0]'],
      [report([free.body.id as string, labIds[1]!]), 422, 'DiagnosticReport.result[1]'],
      [report([free.body.id as string, free.body.id as string]), 400, 'DiagnosticReport.result[1]'],
      [report([]), 400, 'DiagnosticReport.result'],
      [report([free.body.id as string], patient.id, { issued: '2024-07-02T10:00:00Z' }), 422, 'DiagnosticReport.issued'],
      [report([free.body.id as string], patient.id, { status: 'entered-in-error' }), 422, 'DiagnosticReport.status'],
      [report([free.body.id as string], patient.id, { conclusionCode: [{ text: 'Anaemia' }] }), 422, 'DiagnosticReport.conclusionCode'],
      [
        report([free.body.id as string], patient.id, { effectiveDateTime: '2024-07-02T08:00:00Z' }),
        422,
        'DiagnosticReport.effectiveDateTime',
      ],
    ];
    for (const [body, status, expression] of cases) {
      const res = await call('POST', '/fhir/R4/DiagnosticReport', body);
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expectValidFhir(res.body);
      expect(
        (res.body.issue as { expression?: string[] }[]).flatMap((i) => i.expression ?? []),
        JSON.stringify(res.body),
      ).toContain(expression);
    }
    expect({ versions: await versions(), audit: await auditCount(t), rows: await labRows() }).toEqual(before);
  });
});

describe('authorization of DiagnosticReport', () => {
  it('refuses the signed out (401), a role without records.write (403), a record without a grant (403): nothing changes', async () => {
    const stranger = await createPatient(t.db);
    const before = { versions: await versions(), audit: await auditCount(t) };
    expect((await call('POST', '/fhir/R4/DiagnosticReport', report([labIds[2]!]), {}, '')).status).toBe(401);
    expect((await call('POST', '/fhir/R4/DiagnosticReport', report([labIds[2]!]), {}, auditor)).status).toBe(403);
    expect((await call('GET', `/fhir/R4/DiagnosticReport?patient=${patient.id}`, undefined, {}, auditor)).status).toBe(403);
    const nurse = (await signInAs(t, 4)).cookie;
    expect((await call('GET', `/fhir/R4/DiagnosticReport?patient=${patient.id}`, undefined, {}, nurse)).status).toBe(403);
    const noGrant = await call('POST', '/fhir/R4/DiagnosticReport', report([labIds[2]!], stranger.id));
    expect(noGrant.status).toBe(403);
    expectValidFhir(noGrant.body);
    expect({ versions: await versions(), audit: await auditCount(t) }).toEqual(before);
  });

  it('lets a system client create only with the DiagnosticReport write scope', async () => {
    const admin = await signInAsClientCreator(t);
    const client = async (scopes: string[]) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/admin/api-clients',
        headers: { cookie: admin.cookie },
        payload: { name: `Lab ${scopes.length}`, scopes },
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ token: string }>().token;
    };
    const asClient = async (token: string, method: 'GET' | 'POST', url: string, body?: unknown) => {
      const res = await t.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/fhir+json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      return { status: res.statusCode, body: res.json<Json>() };
    };
    const consent = { resourceType: 'Parameters', parameter: [{ name: 'consent', valueBoolean: true }] };
    const observationsOnly = await client(['system/Patient.read', 'system/Observation.write']);
    expect((await asClient(observationsOnly, 'POST', `/fhir/R4/Patient/${patient.id}/$access`, consent)).status).toBe(201);
    const refused = await asClient(observationsOnly, 'POST', '/fhir/R4/DiagnosticReport', report([labIds[2]!]));
    expect(refused.status).toBe(403);
    expect(JSON.stringify(expectValidFhir(refused.body))).toContain('SCOPE_NOT_GRANTED');

    const reporter = await client([
      'system/Patient.read',
      'system/Observation.write',
      'system/DiagnosticReport.write',
      'system/DiagnosticReport.read',
    ]);
    expect((await asClient(reporter, 'POST', `/fhir/R4/Patient/${patient.id}/$access`, consent)).status).toBe(201);
    const glucose = await asClient(
      reporter,
      'POST',
      '/fhir/R4/Observation',
      labResult(patient.id, '2345-7', 'Glucose', 180, 'mg/dL', '2024-07-05'),
    );
    expect(glucose.status, JSON.stringify(glucose.body)).toBe(201);
    const created = await asClient(reporter, 'POST', '/fhir/R4/DiagnosticReport', {
      ...report([glucose.body.id as string]),
      code: { coding: [{ system: LOINC_SYSTEM, code: '2345-7' }], text: 'Glucose' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expectValidFhir(created.body);
    expect((await asClient(reporter, 'GET', `/fhir/R4/DiagnosticReport/${created.body.id as string}`)).status).toBe(200);
  });
});

describe('conditional create (If-None-Exist)', () => {
  const potassium = () => labResult(patient.id, '2823-3', 'Potassium', 4.1, 'mmol/L', '2024-08-01');
  const condition = (text: string) => ({
    resourceType: 'Condition',
    clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
    code: { text },
    subject: { reference: `Patient/${patient.id}` },
    onsetDateTime: '2023-04-05',
  });

  it('creates when nothing matches, and answers a retry with the stored entry: 200, no second row, audited as a read', async () => {
    const ifNoneExist = `patient=${patient.id}&category=laboratory&code=${encodeURIComponent(`${LOINC_SYSTEM}|2823-3`)}&date=2024-08-01`;
    const first = await call('POST', '/fhir/R4/Observation', potassium(), { 'if-none-exist': ifNoneExist });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const rows = await labRows();
    const audit = await auditCount(t);
    const retry = await call('POST', '/fhir/R4/Observation', potassium(), { 'if-none-exist': ifNoneExist });
    expect(retry.status).toBe(200);
    expect(expectValidFhir(retry.body)).toEqual(first.body);
    expect(await labRows()).toBe(rows);
    const reads = await t.db.execute(sql`SELECT action FROM audit_logs ORDER BY id DESC LIMIT ${(await auditCount(t)) - audit}`);
    expect((reads as unknown as { rows: { action: string }[] }).rows.map((r) => r.action)).toEqual(['VIEW']);
  });

  it('refuses with 412 when the search matches more than one entry, storing nothing', async () => {
    for (const text of ['Hypertension', 'Gout']) expect((await call('POST', '/fhir/R4/Condition', condition(text))).status).toBe(201);
    const before = (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM diagnoses`))!.n;
    const res = await call('POST', '/fhir/R4/Condition', condition('Hypertension'), {
      'if-none-exist': `patient=${patient.id}&onset-date=2023-04-05`,
    });
    expect(res.status).toBe(412);
    expect(expectValidFhir(res.body).resourceType).toBe('OperationOutcome');
    expect(JSON.stringify(res.body)).toContain('CONDITIONAL_CREATE_AMBIGUOUS');
    expect((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM diagnoses`))!.n).toBe(before);
  });

  it('answers a DiagnosticReport retry with the stored report', async () => {
    const res = await call('POST', '/fhir/R4/DiagnosticReport', report([labIds[0]!]), {
      'if-none-exist': `patient=${patient.id}&code=58410-2`,
    });
    expect(res.status).toBe(200);
    expect(expectValidFhir(res.body).id).toBe(`report-${labIds[0]!.slice(4)}`);
  });

  it('refuses an If-None-Exist it cannot search with 400', async () => {
    const res = await call('POST', '/fhir/R4/Condition', condition('Malaria'), { 'if-none-exist': 'identifier=urn:x|1' });
    expect(res.status).toBe(400);
    expectValidFhir(res.body);
  });
});
