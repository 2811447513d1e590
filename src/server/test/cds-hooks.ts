// CDS Hooks in tests (decision 045): responses validated against the JSON Schema written from the 2.0.1 specification
// (src/server/modules/cds-hooks/cds-hooks-2.0.schema.json), and a system client that may call the services.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { expect } from 'vitest';
import type { CreatedApiClient } from '../../contracts/api-clients';
import { signInAsClientCreator } from './api-client-fixtures';
import type { TestApp } from './test-app';

const schemaFile = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../modules/cds-hooks/cds-hooks-2.0.schema.json');
const ajv = new Ajv({ allErrors: true, strict: true, validateFormats: false });
ajv.addSchema(JSON.parse(readFileSync(schemaFile, 'utf8')) as object, 'cds');

const validators = new Map<string, ValidateFunction>();

/** The errors of `value` against one definition of the schema (discovery, request, response, card). */
export function cdsSchemaErrors(definition: 'discovery' | 'request' | 'response' | 'card', value: unknown): string[] {
  let validate = validators.get(definition);
  if (!validate) validators.set(definition, (validate = ajv.getSchema(`cds#/definitions/${definition}`)!));
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}

export function expectCdsValid<T>(definition: 'discovery' | 'request' | 'response' | 'card', value: T): T {
  expect(cdsSchemaErrors(definition, value)).toEqual([]);
  return value;
}

/** The scopes a CDS client needs: reading allergies and medicines (and patients, to ask for an access grant). */
export const CDS_SCOPES = ['system/Patient.read', 'system/AllergyIntolerance.read', 'system/MedicationStatement.read'];

/** A system client created by an administrator through the API; its token is shown once. */
export async function createCdsClient(t: TestApp, name: string, scopes: readonly string[] = CDS_SCOPES): Promise<CreatedApiClient> {
  const creator = await signInAsClientCreator(t);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/api-clients',
    headers: { cookie: creator.cookie },
    payload: { name, scopes },
  });
  if (res.statusCode !== 201) throw new Error(`client not created: ${res.statusCode} ${res.body}`);
  return res.json() as CreatedApiClient;
}

/** The client confirms access to the patient's record with the patient's consent (POST Patient/{id}/$access). */
export async function clientConsents(t: TestApp, token: string, patientId: number): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/fhir/R4/Patient/${patientId}/$access`,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
    payload: JSON.stringify({ resourceType: 'Parameters', parameter: [{ name: 'consent', valueBoolean: true }] }),
  });
  if (res.statusCode !== 201) throw new Error(`access not confirmed: ${res.statusCode} ${res.body}`);
}
