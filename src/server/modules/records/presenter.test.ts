// The one presenter (issue 23 item 4, decision 041): a per-row flag planted on one clinical row (`sealed`) must change
// what every read path gives out. Each path is read before the flag is planted (the row is there: the test can fail)
// and after (it is gone, or shown as withheld). A path that bypassed the presenter would still show the row.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { signInPatient } from '../../test/portal-fixtures';
import { confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let staff: string;
let portal: string;
let patient: TestPatient;
let id: number;
const MARKER = `Presenter marker ${randomUUID().slice(0, 8)}`;

beforeAll(async () => {
  t = await createTestApp();
  staff = (await signInAs(t, 3)).cookie;
  patient = await createPatient(t.db);
  await confirmAccess(t, staff, patient.id);
  const api = recordApi(t, staff);
  const res = await api.add('diagnoses', patient.id, { ...SAMPLE_INPUTS.diagnoses, description: MARKER });
  expect(res.statusCode).toBe(201);
  id = res.json().id;
  expect((await api.edit('diagnoses', id, { description: `${MARKER} (edited)` })).statusCode).toBe(200);
  portal = await signInPatient(t, { id: patient.id, ncNumber: patient.idNumber, dateOfBirth: patient.dateOfBirth }, '10.77.0.5');
});
afterAll(async () => {
  await t?.close();
});

/** Every read of a clinical row, as each reader calls it; the body of each answer. */
const READS: [string, () => Promise<string>][] = [
  ['staff list', () => body(staff, `/api/patients/${patient.id}/diagnoses`)],
  ['record summary (the dashboard)', () => body(staff, `/api/patients/${patient.id}/record-summary`)],
  ['portal', () => body(portal, '/api/patient-portal/me', '10.77.0.5')],
  ['FHIR search', () => body(staff, `/fhir/R4/Condition?patient=${patient.id}`)],
  ['FHIR read', () => body(staff, `/fhir/R4/Condition/${id}`)],
  ['FHIR $summary', () => body(staff, `/fhir/R4/Patient/${patient.id}/$summary`)],
  ['history', () => body(staff, `/api/diagnoses/${id}/history`)],
  ['delta read', () => body(staff, `/api/patients/${patient.id}/changes`)],
];

async function body(cookie: string, url: string, remoteAddress = '127.0.0.1'): Promise<string> {
  const res = await t.app.inject({ method: 'GET', url, headers: { cookie }, remoteAddress });
  return `${res.statusCode} ${res.body}`;
}

describe('every read of a clinical row goes through the presenter', () => {
  it.each(READS)('%s shows the row before the flag is planted', async (_name, read) => {
    expect(await read()).toContain(MARKER);
  });

  it('plants the flag', async () => {
    await t.db.execute(sql`UPDATE diagnoses SET sealed = true WHERE id = ${id}`);
  });

  it.each(READS)('%s withholds it once the flag is planted', async (_name, read) => {
    expect(await read()).not.toContain(MARKER);
  });

  it('the delta read still names the row, as withheld, so a client drops its copy', async () => {
    const changes = JSON.parse((await body(staff, `/api/patients/${patient.id}/changes`)).slice(4));
    expect(changes.changes).toContainEqual(expect.objectContaining({ kind: 'diagnoses', id, state: 'withheld', row: null }));
  });

  it('an edit or entered-in-error of a withheld row finds nothing (404)', async () => {
    const api = recordApi(t, staff);
    expect((await api.edit('diagnoses', id, { description: 'x' })).statusCode).toBe(404);
    expect((await api.remove('diagnoses', id, 'x')).statusCode).toBe(404);
  });
});
