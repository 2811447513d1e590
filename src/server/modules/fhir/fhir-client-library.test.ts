// A real FHIR client library (fhir-kit-client) against the app on a real port (issue 14 item 6): it reads the
// CapabilityStatement, reads a patient, searches conditions and follows a paging link, as another system would;
// every answer validates against the official R4 definitions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'fhir-kit-client';
import { expectValidFhir } from '../../test/fhir-validator';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let client: Client;
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp();
  const doctor = await signInAs(t, 3);
  patient = await createPatient(t.db, { lastName: 'Iipumbu' });
  const inject = (url: string, payload: object) => t.app.inject({ method: 'POST', url, headers: { cookie: doctor.cookie }, payload });
  expect((await inject(`/api/patients/${patient.id}/access`, { consent: true })).statusCode).toBe(201);
  for (const condition of ['Tuberculosis', 'Hypertension', 'Asthma']) {
    expect((await inject(`/api/patients/${patient.id}/diagnoses`, { ...SAMPLE_INPUTS.diagnoses, condition })).statusCode).toBe(201);
  }
  const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // The address the server is reached at is known once it listens: the base of its links (PUBLIC_URL).
  t.config.publicUrl = address;
  client = new Client({ baseUrl: `${address}/fhir/R4`, customHeaders: { cookie: doctor.cookie } });
});
afterAll(async () => {
  await t?.close();
});

describe('fhir-kit-client against /fhir/R4', () => {
  it('reads the CapabilityStatement and the patient', async () => {
    const capabilities = expectValidFhir(await client.capabilityStatement());
    expect(capabilities.resourceType).toBe('CapabilityStatement');
    const read = expectValidFhir(await client.read({ resourceType: 'Patient', id: String(patient.id) }));
    expect(read).toMatchObject({ resourceType: 'Patient', id: String(patient.id), name: [{ family: 'Iipumbu' }] });
  });

  it("searches the patient's conditions and pages through them", async () => {
    const first = expectValidFhir(
      await client.search({ resourceType: 'Condition', searchParams: { patient: String(patient.id), _count: 2 } }),
    );
    expect(first).toMatchObject({ resourceType: 'Bundle', type: 'searchset', total: 3 });
    type Page = { entry: { resource: { code: { text: string } } }[] };
    const page = first as unknown as Page;
    expect(page.entry).toHaveLength(2);
    const next = expectValidFhir(await client.nextPage({ bundle: first as Parameters<Client['nextPage']>[0]['bundle'] }));
    const rest = next as unknown as Page;
    expect([...page.entry, ...rest.entry].map((e) => e.resource.code.text).sort()).toEqual(['Asthma', 'Hypertension', 'Tuberculosis']);
  });

  it('gets an OperationOutcome it can read for a refused read', async () => {
    const stranger = await createPatient(t.db);
    await expect(client.read({ resourceType: 'Patient', id: String(stranger.id) })).rejects.toMatchObject({
      response: { status: 403, data: { resourceType: 'OperationOutcome' } },
    });
  });
});
