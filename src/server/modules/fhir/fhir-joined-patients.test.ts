// Old numbers in the FHIR API (issue 24 item 6, decision 048): Patient/{old} is the inactive Patient with
// link replaced-by the survivor, Patient/{survivor} links `replaces` to each record joined into it, a search by the
// old NC number answers the survivor, and a clinical search with patient={old} reads the survivor's record. Every
// resource is checked by the FHIR R4 validator. After undo, each record answers as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { NC_NUMBER_SYSTEM } from '../../fhir/resources';
import { expectValidFhir } from '../../test/fhir-validator';
import { joinPatients, undoJoin, type TestJoin } from '../../test/join-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

type Json = Record<string, unknown> & { resourceType: string };
let t: TestApp;
let cookie: string;
let survivor: TestPatient;
let merged: TestPatient;
let join: TestJoin;

const get = async (url: string, as = cookie) => {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie: as } });
  return { status: res.statusCode, body: res.json<Json>() };
};
const entries = (bundle: Json) => ((bundle.entry as { resource: Json }[] | undefined) ?? []).map((e) => e.resource);

beforeAll(async () => {
  // Above no clinical rows a join waits for a second reviewer: this join (one allergy) is approved by a second one.
  t = await createTestApp({ join: { secondReviewRows: 0 } });
  cookie = (await signInAs(t, ROLE_IDS.doctor)).cookie;
  survivor = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: '1984-03-09' });
  merged = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: '1984-03-09' });
  await confirmAccess(t, cookie, survivor.id);
  expect((await recordApi(t, cookie).add('allergies', survivor.id, SAMPLE_INPUTS.allergies)).statusCode).toBe(201);
  join = await joinPatients(t, survivor.id, merged.id);
  const reviewers = await queryOne<{ requested_by: string; approved_by: string | null }>(
    t.db,
    sql`SELECT requested_by, approved_by FROM patient_joins WHERE id = ${join.id}`,
  );
  expect(reviewers?.approved_by).toBeTruthy();
  expect(reviewers?.approved_by).not.toBe(reviewers?.requested_by);
});
afterAll(async () => {
  await t?.close();
});

describe('joined records in FHIR', () => {
  it('Patient/{old} is the inactive Patient with link replaced-by the survivor', async () => {
    const { status, body } = await get(`/fhir/R4/Patient/${merged.id}`);
    expect(status).toBe(200);
    expectValidFhir(body);
    expect(body).toMatchObject({
      id: String(merged.id),
      active: false,
      identifier: [{ system: NC_NUMBER_SYSTEM, value: merged.idNumber }],
      link: [{ other: { reference: `Patient/${survivor.id}` }, type: 'replaced-by' }],
    });
  });

  it('Patient/{old} without a grant on the survivor is refused with PATIENT_JOINED', async () => {
    const { cookie: other } = await signInAs(t, ROLE_IDS.doctor);
    const { status, body } = await get(`/fhir/R4/Patient/${merged.id}`, other);
    expect(status).toBe(409);
    expect(body).toMatchObject({ resourceType: 'OperationOutcome' });
    expect(JSON.stringify(body)).toContain('PATIENT_JOINED');
  });

  it('Patient/{survivor} is active and links replaces to the record joined into it', async () => {
    const { status, body } = await get(`/fhir/R4/Patient/${survivor.id}`);
    expect(status).toBe(200);
    expectValidFhir(body);
    expect(body).toMatchObject({ active: true, link: [{ other: { reference: `Patient/${merged.id}` }, type: 'replaces' }] });
  });

  it('a search by the old NC number answers the survivor', async () => {
    for (const query of [`identifier=${merged.idNumber}`, `identifier=${encodeURIComponent(`${NC_NUMBER_SYSTEM}|${merged.idNumber}`)}`]) {
      const { status, body } = await get(`/fhir/R4/Patient?${query}`);
      expect(status).toBe(200);
      expectValidFhir(body);
      expect(entries(body).map((r) => r.id)).toEqual([String(survivor.id)]);
    }
  });

  it("patient={old} reads the survivor's resources", async () => {
    const { status, body } = await get(`/fhir/R4/AllergyIntolerance?patient=${merged.id}`);
    expect(status, JSON.stringify(body)).toBe(200);
    expectValidFhir(body);
    const found = entries(body);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ patient: { reference: `Patient/${survivor.id}` } });
  });

  it('after undo, each record answers as before: no links, the old number finds its own record', async () => {
    await undoJoin(t, join);
    const s = await get(`/fhir/R4/Patient/${survivor.id}`);
    expect(s.body).not.toHaveProperty('link');
    expect(s.body).not.toHaveProperty('active');
    const found = await get(`/fhir/R4/Patient?identifier=${merged.idNumber}`);
    expect(entries(found.body).map((r) => r.id)).toEqual([String(merged.id)]);
    expect((await get(`/fhir/R4/Patient/${merged.id}`)).status).toBe(403);
    expect((await get(`/fhir/R4/AllergyIntolerance?patient=${merged.id}`)).status).toBe(403);
  });
});
