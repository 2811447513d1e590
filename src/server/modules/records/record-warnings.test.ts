// The warnings-then-confirm protocol (decision 040) through the real API: a kind's check finds the same coded entry
// already on the record, so the add answers 409 CONFIRMATION_REQUIRED naming the warning and stores nothing; the
// same request with ?confirm=<code> stores it; a confirmation of another warning does not; an edit is not its own
// duplicate; a malformed confirm is a 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATC_SYSTEM, CVX_SYSTEM } from '../../../contracts/codes';
import type { TestPatient } from '../../test/patient-fixtures';
import { auditCount, doctorWithRecord, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let api: ReturnType<typeof recordApi>;
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp();
  const doctor = await doctorWithRecord(t);
  api = recordApi(t, doctor.cookie);
  patient = doctor.patient;
});
afterAll(async () => {
  await t?.close();
});

const amoxicillin = { ...SAMPLE_INPUTS.medications, name: 'Amoxicillin', code: 'J01CA04', codeSystem: ATC_SYSTEM };
const count = async (): Promise<number> => (await api.list('medications', patient.id)).json().length;

describe('an active medication already on the record', () => {
  it('is stored the first time without a warning', async () => {
    expect((await api.add('medications', patient.id, amoxicillin)).statusCode).toBe(201);
  });

  it('answers 409 CONFIRMATION_REQUIRED with the warning the second time, storing and auditing nothing', async () => {
    const before = [await count(), await auditCount(t)];
    const res = await api.add('medications', patient.id, { ...amoxicillin, dosage: '250mg' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: 'Confirm the warnings to store this entry',
      code: 'CONFIRMATION_REQUIRED',
      warnings: [{ code: 'DUPLICATE_ENTRY', message: 'Amoxicillin is already on this record', params: { name: 'Amoxicillin' } }],
    });
    expect([await count(), (await auditCount(t)) - 1]).toEqual(before); // the list read itself is audited
  });

  it('stores it when the request confirms that warning, and not when it confirms another', async () => {
    expect((await api.add('medications', patient.id, amoxicillin, ['OTHER_WARNING'])).statusCode).toBe(409);
    const res = await api.add('medications', patient.id, amoxicillin, ['DUPLICATE_ENTRY']);
    expect(res.statusCode).toBe(201);
  });

  it('does not warn for a discontinued entry or free text', async () => {
    expect((await api.add('medications', patient.id, { ...amoxicillin, status: 'Discontinued' })).statusCode).toBe(201);
    expect((await api.add('medications', patient.id, { ...amoxicillin, code: null, codeSystem: null })).statusCode).toBe(201);
  });

  it('does not count an edited entry as its own duplicate, but does warn when an edit makes it one', async () => {
    const measles = { ...SAMPLE_INPUTS.vaccines, vaccine: 'MR1', code: '04', codeSystem: CVX_SYSTEM, date: '2024-03-01' };
    const first = (await api.add('vaccines', patient.id, measles)).json();
    expect((await api.edit('vaccines', first.id, { batchNumber: 'MR-2231' })).statusCode).toBe(200);
    const second = (await api.add('vaccines', patient.id, { ...measles, date: '2024-09-01', vaccine: 'MR2' })).json();
    expect((await api.edit('vaccines', second.id, { date: '2024-03-01' })).statusCode).toBe(409);
    expect((await api.edit('vaccines', second.id, { date: '2024-03-01' }, ['DUPLICATE_ENTRY'])).statusCode).toBe(200);
  });

  it('refuses a malformed confirm with 400', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/medications?confirm=drop%20table`,
      headers: { cookie: (await signInAs(t, 3)).cookie },
      payload: amoxicillin,
    });
    expect(res.statusCode).toBe(400);
  });
});
