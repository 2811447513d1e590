// A doctor's medicine-check override for tests of the review side (decision 045): a new patient allergic to penicillin,
// amoxicillin added (409: shown once), then stored with confirm and a reason (overridden once).
import { expect } from 'vitest';
import { ATC_SYSTEM } from '../../contracts/code-systems';
import { ROLE_IDS } from '../../contracts/constants';
import { createPatient } from './patient-fixtures';
import { confirmAccess } from './record-api';
import { SAMPLE_INPUTS } from './record-samples';
import { signInAs } from './staff';
import type { TestApp } from './test-app';

export async function amoxicillinOverride(t: TestApp, reason: string, patientName = { firstName: 'Ndapewa', lastName: 'Shikongo' }) {
  const doctor = (await signInAs(t, ROLE_IDS.doctor)).cookie;
  const patient = await createPatient(t.db, patientName);
  await confirmAccess(t, doctor, patient.id);
  const add = (kind: string, payload: object, query = '') =>
    t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/${kind}${query}`, headers: { cookie: doctor }, payload });
  expect(
    (await add('allergies', { ...SAMPLE_INPUTS.allergies, allergen: 'Penicillin', code: 'J01C', codeSystem: ATC_SYSTEM })).statusCode,
  ).toBe(201);
  const amoxicillin = { ...SAMPLE_INPUTS.medications, name: 'Amoxicillin', code: 'J01CA04', codeSystem: ATC_SYSTEM };
  expect((await add('medications', amoxicillin)).statusCode).toBe(409);
  const query = `?confirm=MEDICINE_ALLERGY_CONTRAINDICATED&overrideReason=${encodeURIComponent(reason)}`;
  expect((await add('medications', amoxicillin, query)).statusCode).toBe(201);
  return { patient };
}
