// CDS Hooks through the real API (issue 25 item 6; decision 045): discovery and both services answer what the CDS
// Hooks 2.0 schema allows, for a system client's bearer token only; patient-view lists the record's open allergy
// conflicts and interactions, order-select checks the selected draft orders; cards come in en, af and ng and name the
// knowledge version; every card counts as an alert shown; hostile calls are 4xx and change nothing.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATC_SYSTEM } from '../../../contracts/code-systems';
import type { CreatedApiClient } from '../../../contracts/api-clients';
import { CDS_SCOPES, clientConsents, createCdsClient, expectCdsValid } from '../../test/cds-hooks';
import { databaseFingerprint } from '../../test/db-fingerprint';
import { createPatient } from '../../test/patient-fixtures';
import { confirmAccess } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { medicineKnowledgeState } from '../medicine-checks/medicine-knowledge';

interface Card {
  summary: string;
  detail?: string;
  indicator: string;
  source: { label: string; url?: string; topic?: { code: string } };
}

let t: TestApp;
let client: CreatedApiClient;
let doctor: string;
let patientId: number;
let version: string;

const medicine = (name: string, code: string) => ({ ...SAMPLE_INPUTS.medications, name, code, codeSystem: ATC_SYSTEM });
const asDoctor = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: { cookie: doctor }, payload });

const call = (id: string, body: unknown, headers: Record<string, string> = {}, token: string = client.token) =>
  t.app.inject({
    method: 'POST',
    url: `/cds-services/${id}`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

const patientView = (patient: number | string, extra: object = {}) => ({
  hook: 'patient-view',
  hookInstance: randomUUID(),
  fhirServer: 'https://pharmacy.example.na/fhir',
  context: { userId: 'Practitioner/pharmacist-1', patientId: String(patient) },
  ...extra,
});

const draft = (id: string, text: string, code?: string) => ({
  resource: {
    resourceType: 'MedicationRequest',
    id,
    status: 'draft',
    intent: 'proposal',
    subject: { reference: `Patient/${patientId}` },
    medicationCodeableConcept: { text, ...(code ? { coding: [{ system: ATC_SYSTEM, code, display: text }] } : {}) },
  },
});

const orderSelect = (selections: string[], entries: object[], patient: number = patientId) => ({
  hook: 'order-select',
  hookInstance: randomUUID(),
  context: {
    userId: 'PractitionerRole/dispenser-7',
    patientId: String(patient),
    selections,
    draftOrders: { resourceType: 'Bundle', type: 'collection', entry: entries },
  },
});

const cardsOf = (body: unknown): Card[] => expectCdsValid('response', body as { cards: Card[] }).cards;

beforeAll(async () => {
  t = await createTestApp();
  const state = medicineKnowledgeState();
  if (!state.available) throw new Error('knowledge not loaded');
  version = state.knowledge.version;
  doctor = (await signInAs(t, 3)).cookie;
  patientId = (await createPatient(t.db)).id;
  await confirmAccess(t, doctor, patientId);
  const add = (kind: string, payload: object, query = '') => asDoctor(`/api/patients/${patientId}/${kind}${query}`, payload);
  expect(
    (await add('allergies', { ...SAMPLE_INPUTS.allergies, allergen: 'Penicillin', code: 'J01C', codeSystem: ATC_SYSTEM })).statusCode,
  ).toBe(201);
  const reason = encodeURIComponent('Skin test negative, allergist advice');
  expect(
    (await add('medications', medicine('Amoxicillin', 'J01CA04'), `?confirm=MEDICINE_ALLERGY_CONTRAINDICATED&overrideReason=${reason}`))
      .statusCode,
  ).toBe(201);
  expect((await add('medications', medicine('Rifampicin', 'J04AB02'))).statusCode).toBe(201);
  expect((await add('medications', medicine('TLD', 'J05AR27'), '?confirm=INTERACTION_SERIOUS')).statusCode).toBe(201);
  expect((await add('medications', medicine('Efavirenz', 'J05AG03'))).statusCode).toBe(201);
  client = await createCdsClient(t, 'Oshakati Pharmacy Dispensing');
  await clientConsents(t, client.token, patientId);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('GET /cds-services', () => {
  it('lists patient-view and order-select, valid against the CDS Hooks schema', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/cds-services', headers: { authorization: `Bearer ${client.token}` } });
    expect(res.statusCode).toBe(200);
    const body = expectCdsValid('discovery', res.json() as { services: { hook: string; id: string }[] });
    expect(body.services.map((s) => [s.hook, s.id])).toEqual([
      ['patient-view', 'nhr-patient-view'],
      ['order-select', 'nhr-medicine-checks'],
    ]);
  });

  it('refuses a call without a token (401), a staff session (401) and a bad token (401), as OperationOutcomes', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/cds-services' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(none.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    expect((await t.app.inject({ method: 'GET', url: '/cds-services', headers: { cookie: doctor } })).statusCode).toBe(401);
    const bad = await t.app.inject({ method: 'GET', url: '/cds-services', headers: { authorization: 'Bearer nhrc_not-a-token' } });
    expect(bad.statusCode).toBe(401);
  });
});

describe('patient-view', () => {
  it('answers the open allergy conflict and the interactions, each tier as its indicator, naming the knowledge version', async () => {
    const res = await call('nhr-patient-view', patientView(patientId));
    expect(res.statusCode).toBe(200);
    const cards = cardsOf(res.json());
    const byRule = Object.fromEntries(cards.map((c) => [c.source.topic?.code, c]));
    expect(Object.keys(byRule).sort()).toEqual(['arv-rifampicin-dolutegravir', 'arv-rifampicin-efavirenz', 'atc-hierarchy']);
    expect(byRule['atc-hierarchy']).toMatchObject({
      indicator: 'critical',
      summary: 'Allergy: Amoxicillin and Penicillin must not be given together',
    });
    expect(byRule['arv-rifampicin-dolutegravir']).toMatchObject({
      indicator: 'warning',
      summary: 'Serious interaction: Rifampicin with TLD',
    });
    expect(byRule['arv-rifampicin-efavirenz']!.indicator).toBe('info');
    for (const card of cards) {
      expect(card.summary.length).toBeLessThan(140);
      expect(card.source.label).toContain(version);
    }
    expect(byRule['arv-rifampicin-dolutegravir']!.detail).toContain('Rifampicin halves dolutegravir levels');
  });

  it('counts each card as an alert shown and audits the read with its hookInstance, no payload in the alerts', async () => {
    const body = patientView(patientId);
    const before = await queryRows<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM medicine_check_alerts WHERE channel = 'cds-hooks'`,
    );
    expect((await call('nhr-patient-view', body)).statusCode).toBe(200);
    const alerts = await queryRows<{ code: string; tier: string; knowledge_version: string; user_id: string }>(
      t.db,
      sql`SELECT code, tier, knowledge_version, user_id FROM medicine_check_alerts WHERE channel = 'cds-hooks' ORDER BY id DESC LIMIT 3`,
    );
    expect(alerts.length).toBe(3);
    expect(before[0]!.n + 3).toBe(
      (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM medicine_check_alerts WHERE channel = 'cds-hooks'`))[0]!.n,
    );
    expect(alerts.map((a) => a.code).sort()).toEqual(['INTERACTION_MINOR', 'INTERACTION_SERIOUS', 'MEDICINE_ALLERGY_CONTRAINDICATED']);
    expect(alerts.every((a) => a.knowledge_version === version && a.user_id === client.client.userId)).toBe(true);
    const [audit] = await queryRows<{ action: string; resource_type: string; patient_id: number; new_values: unknown }>(
      t.db,
      sql`SELECT action, resource_type, patient_id, new_values FROM audit_logs WHERE user_id = ${client.client.userId} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toMatchObject({
      action: 'VIEW',
      resource_type: 'MEDICATION',
      patient_id: patientId,
      new_values: { cdsHooks: { hook: 'patient-view', hookInstance: body.hookInstance, userId: 'Practitioner/pharmacist-1', returned: 3 } },
    });
  });

  it.each([
    ['af', 'Allergie: Amoxicillin en Penicillin mag nie saam gegee word nie', 'Die allergie (Penicillin) sluit hierdie medisyne in'],
    ['ng', 'Omaalergi: Amoxicillin na Penicillin inayi pewa pamwe', 'Omaalergi (Penicillin) oga kwatela mo omuti nguka'],
    ['en', 'Allergy: Amoxicillin and Penicillin must not be given together', 'The allergy (Penicillin) includes this medicine'],
  ])('speaks %s when Accept-Language asks for it', async (language, summary, detail) => {
    const res = await call('nhr-patient-view', patientView(patientId), { 'accept-language': `${language};q=0.9, fr;q=1` });
    const card = cardsOf(res.json()).find((c) => c.indicator === 'critical')!;
    expect(card.summary).toBe(summary);
    expect(card.detail).toContain(detail);
  });

  it('answers no cards for a record without conflicts', async () => {
    const quiet = (await createPatient(t.db)).id;
    await clientConsents(t, client.token, quiet);
    const res = await call('nhr-patient-view', patientView(quiet));
    expect(res.statusCode).toBe(200);
    expect(cardsOf(res.json())).toEqual([]);
  });
});

describe('patient-view: immunizations', () => {
  it('adds a card per overdue and due dose of a child, in the caller’s language, for a client that reads recommendations', async () => {
    const born = new Date(Date.now() - 20 * 7 * 86_400_000).toISOString().slice(0, 10); // 20 weeks old, no vaccine given
    const child = (await createPatient(t.db, { lastName: 'Amutenya', dateOfBirth: born })).id;
    const reader = await createCdsClient(t, 'Okuryangava Clinic Register', [...CDS_SCOPES, 'system/ImmunizationRecommendation.read']);
    await clientConsents(t, reader.token, child);
    const en = cardsOf((await call('nhr-patient-view', patientView(child), {}, reader.token)).json());
    expect(en.length).toBeGreaterThan(0);
    const penta = en.find((c) => c.summary.startsWith('Pentavalent 1'));
    expect(penta).toMatchObject({ indicator: 'warning', summary: expect.stringContaining('overdue') });
    expect(penta?.source.label).toContain('Child Health Passport');
    const af = cardsOf((await call('nhr-patient-view', patientView(child), { 'accept-language': 'af' }, reader.token)).json());
    expect(af.find((c) => c.summary.startsWith('Pentavalent 1'))?.summary).toContain('agterstallig');
    // The same child through a client without that scope: the medicine checks' cards only (none here).
    await clientConsents(t, client.token, child);
    expect(cardsOf((await call('nhr-patient-view', patientView(child))).json())).toEqual([]);
  });
});

describe('order-select', () => {
  it('checks the selected drafts against the allergies, the active medicines and the other drafts', async () => {
    const body = orderSelect(
      ['MedicationRequest/a', 'MedicationRequest/b', 'MedicationRequest/c'],
      [
        draft('a', 'Co-amoxiclav', 'J01CR02'),
        draft('b', 'Nevirapine', 'J05AG01'),
        draft('c', 'Herbal mixture'),
        draft('d', 'Warfarin', 'B01AA03'),
        { resource: { resourceType: 'ServiceRequest', id: 'x', status: 'draft', intent: 'order', subject: { reference: 'Patient/1' } } },
      ],
    );
    expectCdsValid('request', body);
    const res = await call('nhr-medicine-checks', body);
    expect(res.statusCode).toBe(200);
    const cards = cardsOf(res.json());
    expect(cards.map((c) => [c.indicator, c.summary]).sort()).toEqual(
      [
        ['critical', 'Allergy: Co-amoxiclav and Penicillin must not be given together'],
        ['critical', 'Do not combine: Nevirapine with Rifampicin'],
        ['warning', 'Not checked: Herbal mixture has no ATC code'],
      ].sort(),
    );
  });

  it('compares a selected draft with an unselected one (rifampicin against a draft warfarin)', async () => {
    const quiet = (await createPatient(t.db)).id;
    await clientConsents(t, client.token, quiet);
    const body = orderSelect(['MedicationRequest/r'], [draft('w', 'Warfarin', 'B01AA03'), draft('r', 'Rifampicin', 'J04AB02')], quiet);
    const cards = cardsOf((await call('nhr-medicine-checks', body)).json());
    expect(cards).toEqual([expect.objectContaining({ indicator: 'warning', summary: 'Serious interaction: Rifampicin with Warfarin' })]);
  });
});

describe('refused calls change nothing', () => {
  const probes: [string, number, () => Promise<{ statusCode: number }>][] = [
    ['bad JSON', 400, () => call('nhr-patient-view', '{"hook": "patient-view", ')],
    ['no context', 400, () => call('nhr-patient-view', { hook: 'patient-view', hookInstance: randomUUID() })],
    ['a context without patientId', 400, () => call('nhr-patient-view', patientView(1, { context: { userId: 'Practitioner/x' } }))],
    ['a hookInstance that is not a UUID', 400, () => call('nhr-patient-view', patientView(patientId, { hookInstance: 'one' }))],
    ['the wrong hook for the service', 400, () => call('nhr-medicine-checks', patientView(patientId))],
    [
      'order-select without draftOrders',
      400,
      () =>
        call('nhr-medicine-checks', {
          ...orderSelect(['MedicationRequest/a'], []),
          context: { userId: 'x', patientId: String(patientId), selections: ['MedicationRequest/a'] },
        }),
    ],
    [
      'a NUL in userId',
      400,
      () => call('nhr-patient-view', patientView(patientId, { context: { userId: 'a\u0000b', patientId: String(patientId) } })),
    ],
    ['an unknown patient', 404, () => call('nhr-patient-view', patientView(99_999_999))],
    ['a patient id that is not ours', 404, () => call('nhr-patient-view', patientView('abc-123'))],
    ['an unknown service', 404, () => call('nhr-nothing', patientView(patientId))],
  ];

  it.each(probes)('%s: %i and nothing changed', async (_label, status, probe) => {
    await call('nhr-patient-view', patientView(patientId)); // the client's last-used time is written before the fingerprint
    const before = await databaseFingerprint(t.db);
    const res = await probe();
    expect(res.statusCode).toBe(status);
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });

  it('gives 403 without a live access grant, and writes no alert', async () => {
    const stranger = (await createPatient(t.db)).id;
    const before = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM medicine_check_alerts`);
    const res = await call('nhr-patient-view', patientView(stranger));
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    expect(await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM medicine_check_alerts`)).toEqual(before);
  });

  it('gives 403 to a client whose scopes do not read allergies and medicines', async () => {
    const narrow = await createCdsClient(t, 'Katutura Lab', ['system/Condition.read']);
    expect(CDS_SCOPES).not.toContain('system/Condition.read');
    const res = await call('nhr-patient-view', patientView(patientId), {}, narrow.token);
    expect(res.statusCode).toBe(403);
    expect(res.headers['www-authenticate']).toContain('insufficient_scope');
  });
});
