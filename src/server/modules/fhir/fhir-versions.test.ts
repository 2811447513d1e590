// Versions and change tracking of the FHIR API (issue 26 item 3; decision 053) through the real app and database:
// meta.versionId and meta.lastUpdated on every resource, ETag on read, create and update, vread and history built on
// the rows' versions (entered in error included, with its status), and FHIR update through the records service's edit
// (If-Match required: 412 without or stale). Every answer validates against the official R4 definitions; every refusal
// changes nothing; the wrong caller is refused on every new route.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { RECORD_KINDS, type RecordKind } from '../../../contracts/kinds';
import { expectValidFhir } from '../../test/fhir-validator';
import { createSystemClient } from '../../test/api-client-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne } from '../../test/sql';
import { signInAs, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { databaseFingerprint } from '../../test/db-fingerprint';
import { hostileText, hostileTypes } from '../../test/hostile-values';

let t: TestApp;
let doctor: { cookie: string; user: StaffUser };
let nurse: { cookie: string; user: StaffUser };
let auditor: { cookie: string; user: StaffUser };
let patient: TestPatient;
let other: TestPatient;
let otherCondition: number;
const ids = {} as Record<RecordKind, number>;

type Json = Record<string, unknown> & { resourceType: string };
interface Answer {
  status: number;
  etag: string | undefined;
  body: Json;
}

async function call(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  options: { cookie?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url,
    headers: {
      ...(options.cookie === '' ? {} : { cookie: options.cookie ?? doctor.cookie }),
      ...(options.body !== undefined ? { 'content-type': 'application/fhir+json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
  });
  return { status: res.statusCode, etag: res.headers.etag as string | undefined, body: res.json<Json>() };
}
const get = (url: string, cookie?: string) => call('GET', url, { cookie });
const put = (url: string, body: unknown, ifMatch?: string, cookie?: string) =>
  call('PUT', url, { body, cookie, headers: ifMatch === undefined ? {} : { 'if-match': ifMatch } });

const auditCount = async () => Number((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n);
const lastAudit = () => queryOne<Record<string, unknown>>(t.db, sql`SELECT * FROM audit_logs ORDER BY id DESC LIMIT 1`);
const diagnosis = (id: number) =>
  queryOne<{ version: number; status: string; resolved_date: string | null; description: string | null; facility: string }>(
    t.db,
    sql`SELECT version, status, resolved_date::text, description, facility FROM diagnoses WHERE id = ${id}`,
  );
const entries = (bundle: Json) => (bundle.entry as { resource: Json; request?: Json; response?: Json }[] | undefined) ?? [];
const meta = (r: Json) => r.meta as { versionId?: string; lastUpdated?: string; profile?: string[] };
const errorCode = (body: Json) => (body.issue as { code: string; details: { coding: { code: string }[] } }[])[0]!;

async function staff(method: 'POST' | 'PATCH' | 'DELETE', url: string, payload: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method, url, headers: { cookie: doctor.cookie, ...headers }, payload: payload as object });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
  return res.body ? res.json<Record<string, unknown>>() : {};
}

beforeAll(async () => {
  t = await createTestApp();
  doctor = await signInAs(t, 3);
  nurse = await signInAs(t, 4);
  auditor = await signInAs(t, 6);
  patient = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: '1984-03-09' });
  other = await createPatient(t.db, { firstName: 'Johannes', lastName: 'Haufiku' });
  for (const p of [patient, other]) await staff('POST', `/api/patients/${p.id}/access`, { consent: true });
  for (const kind of RECORD_KINDS)
    ids[kind] = (await staff('POST', `/api/patients/${patient.id}/${kind}`, SAMPLE_INPUTS[kind])).id as number;
  otherCondition = (await staff('POST', `/api/patients/${other.id}/diagnoses`, { ...SAMPLE_INPUTS.diagnoses, condition: 'Asthma' }))
    .id as number;
  // The other patient's grant ends: reads and changes of their record are refused from here on.
  await t.db.execute(sql`DELETE FROM access_grants WHERE patient_id = ${other.id}`);
});
afterAll(async () => {
  await t?.close();
});

describe('meta and ETag', () => {
  it('puts meta.versionId and meta.lastUpdated on read, search and create answers, and W/"<version>" as ETag', async () => {
    const read = await get(`/fhir/R4/Condition/${ids.diagnoses}`);
    expect(read.status).toBe(200);
    expectValidFhir(read.body);
    expect(meta(read.body).versionId).toBe('1');
    expect(meta(read.body).lastUpdated).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    expect(read.etag).toBe('W/"1"');

    // A vital-signs Observation keeps its profile beside the version.
    const weight = await get(`/fhir/R4/Observation/${ids.vitals}-weight`);
    expect(meta(expectValidFhir(weight.body))).toMatchObject({
      versionId: '1',
      profile: ['http://hl7.org/fhir/StructureDefinition/bodyweight'],
    });
    expect(weight.etag).toBe('W/"1"');

    for (const type of ['Condition', 'AllergyIntolerance', 'MedicationStatement', 'Immunization', 'Observation', 'Appointment']) {
      const bundle = expectValidFhir((await get(`/fhir/R4/${type}?patient=${patient.id}`)).body);
      expect(entries(bundle).length, type).toBeGreaterThan(0);
      for (const e of entries(bundle)) expect(meta(e.resource), type).toMatchObject({ versionId: '1', lastUpdated: expect.any(String) });
    }

    const created = await call('POST', '/fhir/R4/Condition', {
      body: {
        resourceType: 'Condition',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
        code: { text: 'Malaria' },
        subject: { reference: `Patient/${patient.id}` },
        onsetDateTime: '2024-02-01',
      },
    });
    expect(created.status).toBe(201);
    expect(meta(expectValidFhir(created.body)).versionId).toBe('1');
    expect(created.etag).toBe('W/"1"');
  });

  it('gives a Patient meta.lastUpdated on read and search', async () => {
    const read = await get(`/fhir/R4/Patient/${patient.id}`);
    expect(meta(expectValidFhir(read.body)).lastUpdated).toEqual(expect.any(String));
    const found = expectValidFhir((await get(`/fhir/R4/Patient?identifier=${patient.idNumber}`)).body);
    expect(meta(entries(found)[0]!.resource).lastUpdated).toEqual(expect.any(String));
  });

  it('gives an AuditEvent its one version and recorded time, an ImmunizationRecommendation the read’s time', async () => {
    const events = expectValidFhir((await get(`/fhir/R4/AuditEvent?patient=${patient.id}&_count=3`, auditor.cookie)).body);
    for (const e of entries(events)) {
      expect(meta(e.resource).versionId).toBe('1');
      expect(Date.parse(meta(e.resource).lastUpdated!)).toBe(Date.parse(e.resource.recorded as string));
    }
    const child = await createPatient(t.db, {
      firstName: 'Ndeshi',
      lastName: 'Amutenya',
      dateOfBirth: new Date(Date.now() - 100 * 86_400_000).toISOString().slice(0, 10),
    });
    await staff('POST', `/api/patients/${child.id}/access`, { consent: true });
    const recommendation = expectValidFhir((await get(`/fhir/R4/ImmunizationRecommendation?patient=${child.id}`)).body);
    expect(meta(entries(recommendation)[0]!.resource).lastUpdated).toEqual(expect.any(String));
    // An adult with no dose to recommend has none (R4 needs at least one recommendation in the resource).
    expect(expectValidFhir((await get(`/fhir/R4/ImmunizationRecommendation?patient=${patient.id}`)).body).total).toBe(0);
  });

  it('declares vread, history, update and versioning in the CapabilityStatement', async () => {
    const statement = expectValidFhir((await get('/fhir/R4/metadata', '')).body);
    const resources = (statement.rest as { resource: Json[] }[])[0]!.resource;
    const of = (type: string) => resources.find((r) => r.type === type)!;
    const codes = (type: string) => (of(type).interaction as { code: string }[]).map((i) => i.code);
    expect(codes('Condition')).toEqual(expect.arrayContaining(['read', 'vread', 'history-instance', 'update', 'create']));
    expect(of('Condition')).toMatchObject({ versioning: 'versioned-update', readHistory: true, updateCreate: false });
    expect(codes('Appointment')).toEqual(expect.arrayContaining(['vread', 'history-instance']));
    expect(codes('Appointment')).not.toContain('update');
    expect(of('Appointment').versioning).toBe('versioned');
  });
});

describe('vread and history', () => {
  it('lists every version newest first, entered in error with its status, and reads each version', async () => {
    const id = (await staff('POST', `/api/patients/${patient.id}/diagnoses`, { ...SAMPLE_INPUTS.diagnoses, condition: 'Hypertension' }))
      .id as number;
    await staff('PATCH', `/api/diagnoses/${id}`, { status: 'Resolved', resolvedDate: '2024-08-01' }, { 'if-match': '1' });
    await staff('DELETE', `/api/diagnoses/${id}`, { reason: 'Recorded on the wrong patient' });

    const before = await auditCount();
    const history = await get(`/fhir/R4/Condition/${id}/_history`);
    expect(history.status).toBe(200);
    expectValidFhir(history.body);
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({
      action: 'VIEW',
      resource_type: 'DIAGNOSIS',
      resource_id: String(id),
      user_id: doctor.user.id,
    });
    expect(history.body).toMatchObject({ resourceType: 'Bundle', type: 'history', total: 3 });
    const versions = entries(history.body);
    expect(versions.map((e) => meta(e.resource).versionId)).toEqual(['3', '2', '1']);
    expect(versions.map((e) => e.request)).toEqual([
      { method: 'PUT', url: `Condition/${id}` },
      { method: 'PUT', url: `Condition/${id}` },
      { method: 'POST', url: 'Condition' },
    ]);
    expect(versions.map((e) => (e.response as unknown as { etag: string }).etag)).toEqual(['W/"3"', 'W/"2"', 'W/"1"']);
    const [eie, resolved, first] = versions.map((e) => e.resource);
    expect(eie!.verificationStatus).toMatchObject({ coding: [{ code: 'entered-in-error' }] });
    expect(eie!.clinicalStatus).toBeUndefined();
    expect(resolved).toMatchObject({ clinicalStatus: { coding: [{ code: 'resolved' }] }, abatementDateTime: '2024-08-01' });
    expect(first).toMatchObject({ clinicalStatus: { coding: [{ code: 'active' }] }, code: { text: 'Hypertension' } });

    for (const [vid, expected] of [
      ['1', first],
      ['2', resolved],
      ['3', eie],
    ] as const) {
      const vread = await get(`/fhir/R4/Condition/${id}/_history/${vid}`);
      expect(vread.status).toBe(200);
      expect(expectValidFhir(vread.body)).toEqual(expected);
      expect(vread.etag).toBe(`W/"${vid}"`);
    }
    for (const vid of ['4', '0', 'abc', '1.5', '99999999999'])
      expect((await get(`/fhir/R4/Condition/${id}/_history/${vid}`)).status, vid).toBe(404);
  });

  it('keeps the parts of a reading apart: an Observation has only the versions it existed in', async () => {
    const reading = (await staff('POST', `/api/patients/${patient.id}/vitals`, { temperature: 37.1 })).id as number;
    await staff('PATCH', `/api/vitals/${reading}`, { weight: 70.2 }, { 'if-match': '1' });
    const weight = expectValidFhir((await get(`/fhir/R4/Observation/${reading}-weight/_history`)).body);
    expect(entries(weight).map((e) => meta(e.resource).versionId)).toEqual(['2']);
    const temperature = expectValidFhir((await get(`/fhir/R4/Observation/${reading}-temperature/_history`)).body);
    expect(entries(temperature).map((e) => meta(e.resource).versionId)).toEqual(['2', '1']);
    expect((await get(`/fhir/R4/Observation/${reading}-weight/_history/1`)).status).toBe(404);
    expect((await get(`/fhir/R4/Observation/${reading}-bp/_history`)).status).toBe(404);
  });

  it('is the laboratory result and the appointment too (every clinical type)', async () => {
    for (const path of [`Observation/lab-${ids['lab-results']}`, `Appointment/${ids.appointments}`, `Immunization/${ids.vaccines}`]) {
      const history = await get(`/fhir/R4/${path}/_history`);
      expect(history.status, path).toBe(200);
      expect(entries(expectValidFhir(history.body)).length, path).toBe(1);
      expect((await get(`/fhir/R4/${path}/_history/1`)).status, path).toBe(200);
    }
  });

  it('refuses parameters of history, unknown ids and another patient without a grant, writing no audit row', async () => {
    const before = await auditCount();
    const withCount = await get(`/fhir/R4/Condition/${ids.diagnoses}/_history?_count=5`);
    expect(withCount.status).toBe(400);
    expect(errorCode(expectValidFhir(withCount.body)).code).toBe('invalid');
    expect((await get('/fhir/R4/Condition/999999/_history')).status).toBe(404);
    expect((await get('/fhir/R4/Condition/abc/_history/1')).status).toBe(404);
    const refused = await get(`/fhir/R4/Condition/${otherCondition}/_history`);
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).not.toContain('Asthma');
    expect((await get(`/fhir/R4/Condition/${otherCondition}/_history/1`)).status).toBe(403);
    expect(await auditCount()).toBe(before);
  });
});

describe('update (PUT)', () => {
  it('updates through the records edit with If-Match: a new version, its ETag, an UPDATE audit row', async () => {
    const id = (await staff('POST', `/api/patients/${patient.id}/diagnoses`, { ...SAMPLE_INPUTS.diagnoses, condition: 'Gout' }))
      .id as number;
    const read = await get(`/fhir/R4/Condition/${id}`);
    const resolved = {
      ...read.body,
      clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'resolved' }] },
      abatementDateTime: '2024-09-01',
    };
    delete (resolved as Record<string, unknown>).meta;
    const before = await auditCount();
    const res = await put(`/fhir/R4/Condition/${id}`, resolved, read.etag);
    expect(res.status).toBe(200);
    expectValidFhir(res.body);
    expect(res.etag).toBe('W/"2"');
    expect(res.body).toMatchObject({ id: String(id), meta: { versionId: '2' }, abatementDateTime: '2024-09-01' });
    expect(await auditCount()).toBe(before + 1);
    expect(await lastAudit()).toMatchObject({
      action: 'UPDATE',
      resource_type: 'DIAGNOSIS',
      resource_id: String(id),
      user_id: doctor.user.id,
    });
    // Only what the client changed: the description and facility, which the Condition reads back in its note, stay.
    expect(await diagnosis(id)).toEqual({
      version: 2,
      status: 'Resolved',
      resolved_date: '2024-09-01',
      description: 'HbA1c 8.1%',
      facility: 'Katutura State Hospital',
    });
    // The staff screen sees the same row.
    const history = expectValidFhir((await get(`/fhir/R4/Condition/${id}/_history`)).body);
    expect(entries(history).map((e) => meta(e.resource).versionId)).toEqual(['2', '1']);
  });

  it('updates one part of a reading (the temperature) and keeps the others', async () => {
    const read = await get(`/fhir/R4/Observation/${ids.vitals}-temperature`);
    const body = { ...read.body, valueQuantity: { value: 38.4, unit: 'C', system: 'http://unitsofmeasure.org', code: 'Cel' } };
    const res = await put(`/fhir/R4/Observation/${ids.vitals}-temperature`, body, read.etag);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(expectValidFhir(res.body)).toMatchObject({ valueQuantity: { value: 38.4 }, meta: { versionId: '2' } });
    const weight = await get(`/fhir/R4/Observation/${ids.vitals}-weight`);
    expect(weight.body).toMatchObject({ valueQuantity: { value: 72.5 }, meta: { versionId: '2' } });
    // A part the reading does not have is not created by an update (no update-create): 404, nothing changed.
    const bp = await get(`/fhir/R4/Observation/${ids.vitals}-bp`);
    const onlyTemperature = (await staff('POST', `/api/patients/${patient.id}/vitals`, { temperature: 36.5 })).id as number;
    const missing = await put(`/fhir/R4/Observation/${onlyTemperature}-bp`, { ...bp.body, id: `${onlyTemperature}-bp` }, 'W/"1"');
    expect(missing.status).toBe(404);
    expect((await get(`/fhir/R4/Observation/${onlyTemperature}-temperature`)).body).toMatchObject({ meta: { versionId: '1' } });
  });

  it('refuses a missing or stale If-Match with 412, and bad bodies with 400, changing nothing', async () => {
    const id = ids.diagnoses;
    const read = await get(`/fhir/R4/Condition/${id}`);
    const body = { ...read.body, code: { text: 'Type 1 diabetes mellitus' } };
    const before = { audit: await auditCount(), row: await diagnosis(id) };
    const missing = await put(`/fhir/R4/Condition/${id}`, body);
    expect(missing.status).toBe(412);
    expect(errorCode(expectValidFhir(missing.body))).toMatchObject({
      code: 'conflict',
      details: { coding: [{ code: 'PRECONDITION_FAILED' }] },
    });
    const stale = await put(`/fhir/R4/Condition/${id}`, body, 'W/"7"');
    expect(stale.status).toBe(412);
    expect(errorCode(expectValidFhir(stale.body)).details.coding[0]!.code).toBe('PRECONDITION_FAILED');
    for (const [what, bad] of [
      ['another id', { ...body, id: String(ids.diagnoses + 1000) }],
      ['no id', { ...body, id: undefined }],
      ['another patient', { ...body, subject: { reference: `Patient/${other.id}` } }],
      ['no code', { ...body, code: undefined }],
      ['another type', { ...body, resourceType: 'AllergyIntolerance' }],
    ] as const) {
      const res = await put(`/fhir/R4/Condition/${id}`, bad, read.etag);
      expect(res.status, what).toBe(400);
      expect(errorCode(expectValidFhir(res.body)).code, what).toBe('invalid');
    }
    const noCode = await put(`/fhir/R4/Condition/${id}`, { ...body, code: undefined }, read.etag);
    expect((noCode.body.issue as { expression?: string[] }[]).some((i) => i.expression?.includes('Condition.code'))).toBe(true);
    expect((await put('/fhir/R4/Condition/999999', { ...body, id: '999999' }, read.etag)).status).toBe(404);
    // An appointment is not updated through FHIR: no such route.
    expect(
      (await put(`/fhir/R4/Appointment/${ids.appointments}`, { resourceType: 'Appointment', id: String(ids.appointments) }, 'W/"1"'))
        .status,
    ).toBe(404);
    expect({ audit: await auditCount(), row: await diagnosis(id) }).toEqual(before);
  });

  it('takes back every resource as it was read (every updatable type): 200, a new version, the same content', async () => {
    const readable = [
      `Condition/${ids.diagnoses}`,
      `AllergyIntolerance/${ids.allergies}`,
      `MedicationStatement/${ids.medications}`,
      `Immunization/${ids.vaccines}`,
      `Observation/lab-${ids['lab-results']}`,
      `Observation/${ids.vitals}-bp`,
    ];
    for (const path of readable) {
      const read = await get(`/fhir/R4/${path}`);
      expect(read.status, path).toBe(200);
      const res = await put(`/fhir/R4/${path}`, read.body, read.etag);
      expect(res.status, `${path}: ${JSON.stringify(res.body)}`).toBe(200);
      const { meta: _before, ...content } = read.body as Record<string, unknown>;
      const { meta: _after, ...contentAfter } = expectValidFhir(res.body) as Record<string, unknown>;
      expect(contentAfter, path).toEqual(content);
    }
  });

  it('refuses what the record cannot hold (422 naming it) and a retraction by update, changing nothing', async () => {
    const id = ids.diagnoses;
    const read = await get(`/fhir/R4/Condition/${id}`);
    const before = { audit: await auditCount(), row: await diagnosis(id) };
    // What a client read back (meta with versionId and lastUpdated) is accepted; an element held nowhere is not.
    const unknown = await put(`/fhir/R4/Condition/${id}`, { ...read.body, severity: { text: 'Severe' } }, read.etag);
    expect(unknown.status).toBe(422);
    expect(errorCode(expectValidFhir(unknown.body)).code).toBe('not-supported');
    expect((unknown.body.issue as { expression?: string[] }[]).flatMap((i) => i.expression ?? [])).toContain('Condition.severity');
    const refuted = await put(
      `/fhir/R4/Condition/${id}`,
      {
        ...read.body,
        clinicalStatus: undefined,
        verificationStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-ver-status', code: 'refuted' }] },
      },
      read.etag,
    );
    expect(refuted.status).toBe(422);
    expect(errorCode(expectValidFhir(refuted.body)).code).toBe('not-supported');
    expect({ audit: await auditCount(), row: await diagnosis(id) }).toEqual(before);
    const same = await put(`/fhir/R4/Condition/${id}`, read.body, read.etag);
    expect(same.status).toBe(200);
  });

  it('refuses hostile values in the updated resource (with a right If-Match) with a 4xx, never a 5xx, changing nothing', async () => {
    const read = await get(`/fhir/R4/Condition/${ids.diagnoses}`);
    const before = await databaseFingerprint(t.db);
    const failures: string[] = [];
    // [element, the resource with the value there, a date, wrong JSON types too]. (Wrong types where the create
    // mapping falls back to another element, such as onsetDateTime to recordedDate, are the faithful-create work.)
    const fields: [string, (v: unknown) => Json, boolean, boolean][] = [
      ['code.text', (v) => ({ ...read.body, code: { text: v } }), false, true],
      ['subject.reference', (v) => ({ ...read.body, subject: { reference: v } }), false, true],
      ['onsetDateTime', (v) => ({ ...read.body, onsetDateTime: v, recordedDate: v }), true, false],
      ['abatementDateTime', (v) => ({ ...read.body, abatementDateTime: v }), true, false],
      ['note', (v) => ({ ...read.body, note: [{ text: v }] }), false, false],
    ];
    for (const [n, [field, body, isDate, types]] of fields.entries()) {
      for (const hostile of [...hostileText(n * 10, isDate), ...(types ? hostileTypes(n * 10) : [])].filter((h) => h.mustRefuse)) {
        const res = await put(`/fhir/R4/Condition/${ids.diagnoses}`, body(hostile.value), read.etag);
        if (res.status < 400 || res.status >= 500)
          failures.push(`${field} = ${JSON.stringify(hostile.value)} (${hostile.label}): ${res.status}`);
      }
    }
    expect(failures).toEqual([]);
    const after = await databaseFingerprint(t.db);
    expect(Object.keys(after).filter((k) => after[k] !== before[k])).toEqual([]);
  });

  it('refuses the wrong caller: no grant, no records.write, a client without the write scope, signed out', async () => {
    const read = await get(`/fhir/R4/Condition/${ids.diagnoses}`);
    const before = { audit: await auditCount(), row: await diagnosis(otherCondition), mine: await diagnosis(ids.diagnoses) };
    const otherBody = { ...read.body, id: String(otherCondition), subject: { reference: `Patient/${other.id}` } };
    const noGrant = await put(`/fhir/R4/Condition/${otherCondition}`, otherBody, 'W/"1"');
    expect(noGrant.status).toBe(403);
    expect(errorCode(expectValidFhir(noGrant.body)).details.coding[0]!.code).toBe('ACCESS_GRANT_REQUIRED');
    expect((await put(`/fhir/R4/Condition/${ids.diagnoses}`, read.body, read.etag, auditor.cookie)).status).toBe(403);
    expect((await put(`/fhir/R4/Condition/${ids.diagnoses}`, read.body, read.etag, '')).status).toBe(401);
    expect({ audit: await auditCount(), row: await diagnosis(otherCondition), mine: await diagnosis(ids.diagnoses) }).toEqual(before);
    // A nurse holds records.write: the same update passes for her.
    const byNurse = await put(`/fhir/R4/Condition/${ids.diagnoses}`, read.body, read.etag, nurse.cookie);
    expect(byNurse.status).toBe(403); // no grant of her own yet
    await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/access`,
      headers: { cookie: nurse.cookie },
      payload: { consent: true },
    });
    expect((await put(`/fhir/R4/Condition/${ids.diagnoses}`, read.body, read.etag, nurse.cookie)).status).toBe(200);
  });
});

describe('system clients on the new routes', () => {
  it('reads history and versions only with the read scope, and never updates without the write scope', async () => {
    const { bearer } = await createSystemClient(t, 'Oshakati Lab', ['system/Patient.read', 'system/Condition.read']);
    const asClient = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown, headers: Record<string, string> = {}) =>
      call(method, url, { cookie: '', body, headers: { ...bearer, ...headers } });
    const consent = { resourceType: 'Parameters', parameter: [{ name: 'consent', valueBoolean: true }] };
    expect((await asClient('POST', `/fhir/R4/Patient/${patient.id}/$access`, consent)).status).toBe(201);

    expect((await asClient('GET', `/fhir/R4/Condition/${ids.diagnoses}/_history`)).status).toBe(200);
    expect((await asClient('GET', `/fhir/R4/Condition/${ids.diagnoses}/_history/1`)).status).toBe(200);
    const allergies = await asClient('GET', `/fhir/R4/AllergyIntolerance/${ids.allergies}/_history`);
    expect(allergies.status).toBe(403);
    expect(errorCode(allergies.body).details.coding[0]!.code).toBe('SCOPE_NOT_GRANTED');
    expect((await asClient('GET', `/fhir/R4/AllergyIntolerance/${ids.allergies}/_history/1`)).status).toBe(403);

    const read = await get(`/fhir/R4/Condition/${ids.diagnoses}`);
    const before = { audit: await auditCount(), row: await diagnosis(ids.diagnoses) };
    const update = await asClient('PUT', `/fhir/R4/Condition/${ids.diagnoses}`, read.body, { 'if-match': read.etag! });
    expect(update.status).toBe(403);
    expect(errorCode(update.body).details.coding[0]!.code).toBe('SCOPE_NOT_GRANTED');
    expect({ audit: await auditCount(), row: await diagnosis(ids.diagnoses) }).toEqual(before);
  });
});
