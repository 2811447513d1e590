// FHIR links and $match volume (issue 21 item 20): absolute links (Bundle self, fullUrl, Location, the
// CapabilityStatement's address) name the configured PUBLIC_URL, never the request's Host header; each $match is a
// search counted against the same per-user limit as every search (per client for a system client), so a flood of
// $match calls cannot hand out hundreds of patients.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../contracts/constants';
import { loadConfig } from '../../config';
import { testClock } from '../../test/clock';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { signInAs } from '../../test/staff';
import { createSystemClient } from '../../test/api-client-fixtures';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app';
import { NC_NUMBER_SYSTEM } from '../../fhir/resources';

const PUBLIC_URL = 'https://records.health.test.na';
const SEARCH_MAX = 3;
// The middle of a minute: the clock-aligned search window does not end during the test.
const clock = testClock(new Date('2026-05-04T09:00:20Z'));
let t: TestApp;
let doctor: string;
let patient: TestPatient;

beforeAll(async () => {
  const base = testConfig();
  t = await createTestApp({
    now: clock.now,
    publicUrl: PUBLIC_URL,
    rateLimits: { ...base.rateLimits, search: { max: SEARCH_MAX, windowMs: 60_000 } },
  });
  doctor = (await signInAs(t, ROLE_IDS.doctor)).cookie;
  patient = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: '1984-03-09' });
});
afterAll(async () => {
  await t?.close();
});

const EVIL = 'evil.example.com';
const match = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: '/fhir/R4/Patient/$match',
    headers: { ...headers, host: EVIL, 'content-type': 'application/fhir+json' },
    payload: JSON.stringify({
      resourceType: 'Parameters',
      parameter: [
        { name: 'resource', resource: { resourceType: 'Patient', identifier: [{ system: NC_NUMBER_SYSTEM, value: patient.idNumber }] } },
      ],
    }),
  });

describe('absolute links in FHIR answers', () => {
  it('name PUBLIC_URL, whatever Host the request sent', async () => {
    const metadata = await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata', headers: { host: EVIL } });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.body).not.toContain(EVIL);
    expect(metadata.json()).toMatchObject({ implementation: { url: `${PUBLIC_URL}/fhir/R4` } });

    const grant = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/access`,
      headers: { cookie: doctor },
      payload: { consent: true },
    });
    expect(grant.statusCode).toBe(201);
    const created = await t.app.inject({
      method: 'POST',
      url: '/fhir/R4/Condition',
      headers: { cookie: doctor, host: EVIL, 'x-forwarded-host': EVIL, 'content-type': 'application/fhir+json' },
      payload: JSON.stringify({
        resourceType: 'Condition',
        clinicalStatus: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' }] },
        code: { text: 'Malaria' },
        subject: { reference: `Patient/${patient.id}` },
        onsetDateTime: '2024-02-01',
      }),
    });
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toMatch(new RegExp(`^${PUBLIC_URL}/fhir/R4/Condition/\\d+$`));

    const list = await t.app.inject({
      method: 'GET',
      url: `/fhir/R4/Condition?patient=${patient.id}`,
      headers: { cookie: doctor, host: EVIL },
    });
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(EVIL);
    const bundle = list.json<{ link: { url: string }[]; entry: { fullUrl: string }[] }>();
    expect(bundle.link.length).toBeGreaterThan(0);
    for (const l of bundle.link) expect(l.url.startsWith(`${PUBLIC_URL}/fhir/R4/`)).toBe(true);
    for (const e of bundle.entry) expect(e.fullUrl.startsWith(`${PUBLIC_URL}/fhir/R4/`)).toBe(true);
  });

  it('PUBLIC_URL is checked at start: http(s) only, trailing slash dropped, WEBAUTHN origin or localhost by default', () => {
    expect(loadConfig({}).publicUrl).toBe('http://localhost:5000');
    expect(loadConfig({ WEBAUTHN_ORIGINS: 'https://a.test.na,https://b.test.na' }).publicUrl).toBe('https://a.test.na');
    expect(loadConfig({ PUBLIC_URL: 'https://records.test.na/nhr/' }).publicUrl).toBe('https://records.test.na/nhr');
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://records.test.na' })).toThrow(/PUBLIC_URL/);
    expect(() => loadConfig({ PUBLIC_URL: 'records.test.na' })).toThrow(/PUBLIC_URL/);
  });
});

describe('$match volume', () => {
  it('counts each $match as a search: past the per-user limit it is 429 (an OperationOutcome) and shares the limit with searches', async () => {
    const { cookie } = await signInAs(t, ROLE_IDS.doctor);
    for (let i = 0; i < SEARCH_MAX; i++) expect((await match({ cookie })).statusCode).toBe(200);
    const refused = await match({ cookie });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    expect(refused.body).not.toContain('Shikongo');
    expect(refused.headers['retry-after']).toBeDefined();
    const search = await t.app.inject({
      method: 'POST',
      url: '/api/patients/search',
      headers: { cookie },
      payload: { method: 'id-number', idNumber: patient.idNumber },
    });
    expect(search.statusCode).toBe(429);
    // Another user is not held back by this one.
    expect((await match({ cookie: doctor })).statusCode).toBe(200);
  });

  it('counts a system client under its own limit', async () => {
    // A creator holding what the client is given (issue 21 item 5: an administrator without patient search may not).
    const { bearer: auth } = await createSystemClient(t, 'Katutura Registry', ['system/Patient.read']);
    for (let i = 0; i < SEARCH_MAX; i++) expect((await match(auth)).statusCode).toBe(200);
    expect((await match(auth)).statusCode).toBe(429);
  });
});
