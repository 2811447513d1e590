// Issue 10 item 9: the patient's access history names the staff member and their role as they were when the record
// was opened or the patient was found: renaming the user or changing their role later does not rewrite history.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { insertPatient, signInPatient, type SeededPatient } from '../../test/portal-fixtures';
import { createStaffUser, signIn } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let patient: SeededPatient;

beforeAll(async () => {
  t = await createTestApp();
  patient = await insertPatient(t.db, { firstName: 'Martha', lastName: 'Iipinge', dateOfBirth: '1984-02-11', sex: 'Female' });
});
afterAll(async () => {
  await t?.close();
});

interface HistoryItem {
  kind: string;
  name: string;
  role: { name: string; displayName: string } | null;
}

describe('the access history keeps the name and role of the time', () => {
  it('after the user is renamed and moved to another role', async () => {
    const doctor = await createStaffUser(t.db, { roleId: 3, firstName: 'Selma', lastName: 'Nangolo' });
    const cookie = await signIn(t.app, doctor.email, doctor.password);
    const search = await t.app.inject({
      method: 'POST',
      url: '/api/patients/search',
      headers: { cookie },
      payload: { method: 'id-number', idNumber: patient.ncNumber },
    });
    expect(search.statusCode).toBe(200);
    const grant = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/access`,
      headers: { cookie },
      payload: { consent: true },
    });
    expect(grant.statusCode).toBe(201);

    await t.db.execute(sql`UPDATE users SET first_name = 'Renamed', last_name = 'Person', role_id = 4 WHERE id = ${doctor.id}`);

    const patientCookie = await signInPatient(t, patient);
    const res = await t.app.inject({ method: 'GET', url: '/api/patient-portal/access-log', headers: { cookie: patientCookie } });
    expect(res.statusCode).toBe(200);
    const items = (res.json() as { items: HistoryItem[] }).items;
    // The desk's activation code for this sign-in (decision 016) is listed too.
    expect(items.map((i) => i.kind).sort()).toEqual(['ACTIVATION_CODE', 'CONSENT', 'PORTAL_ACTIVATED', 'SEARCH']);
    for (const item of items.filter((i) => i.kind !== 'ACTIVATION_CODE' && i.kind !== 'PORTAL_ACTIVATED')) {
      expect(item.name).toBe('Selma Nangolo');
      expect(item.role).toEqual({ name: 'doctor', displayName: 'Doctor' });
    }
  });
});
