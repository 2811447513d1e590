// The add-patient duplicate check shows other patients' demographics (issue 21 item 9): each answer with matches is
// audited as a SEARCH naming the patients shown, and checks count against the same per-user limit as searches. A
// refused record open (no confirmed access) writes a RECORD_ACCESS_REFUSED security event on either API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { testClock } from '../../test/clock';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { queryRows } from '../../test/sql';
import { signInAs, type StaffUser } from '../../test/staff';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app';

const SEARCH_MAX = 4;
// The middle of a minute, so the clock-aligned search window does not end during the test.
const clock = testClock(new Date('2026-05-04T09:00:20Z'));
let t: TestApp;
let receptionist: { cookie: string; user: StaffUser };
let doctor: { cookie: string; user: StaffUser };
let twin: TestPatient;

beforeAll(async () => {
  const base = testConfig();
  t = await createTestApp({ now: clock.now, rateLimits: { ...base.rateLimits, search: { max: SEARCH_MAX, windowMs: 60_000 } } });
  receptionist = await signInAs(t, ROLE_IDS.receptionist);
  doctor = await signInAs(t, ROLE_IDS.doctor);
  twin = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' });
});
afterAll(async () => {
  await t?.close();
});

const addPatient = (cookie: string, firstName = 'Ndapewa') =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/patients',
    headers: { cookie },
    payload: { firstName, lastName: 'Nghipondoka', sex: 'Female', dateOfBirth: '1984-03-09', address: 'Oshakati' },
  });
const search = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/patients/search',
    headers: { cookie },
    payload: { method: 'name-dob', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' },
  });
const searchRows = (userId: string) =>
  queryRows<{ patient_id: number | null; new_values: { criteria: { method: string }; patientIds: number[]; resultCount: number } }>(
    t.db,
    sql`SELECT patient_id, new_values FROM audit_logs WHERE action = 'SEARCH' AND user_id = ${userId} ORDER BY id`,
  );
const patientCount = async () => (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM patients`))[0]!.n;

describe('the add-patient duplicate check', () => {
  it('audits each answer with matches as a SEARCH naming the patients shown (the patient sees it in their access history)', async () => {
    const res = await addPatient(receptionist.cookie, 'Ndapéwa');
    expect(res.statusCode).toBe(409);
    expect(res.json<{ duplicates: { id: number }[] }>().duplicates.map((d) => d.id)).toEqual([twin.id]);
    const rows = await searchRows(receptionist.user.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      patient_id: twin.id,
      new_values: { criteria: { method: 'duplicate-check' }, patientIds: [twin.id], resultCount: 1 },
    });
  });

  it('counts against the per-user search limit: past it, 429 with no matches shown and nothing audited or added', async () => {
    // The first test used one of SEARCH_MAX; one search and the duplicate checks use the rest.
    expect((await search(receptionist.cookie)).statusCode).toBe(200);
    for (let i = 2; i < SEARCH_MAX; i++) expect((await addPatient(receptionist.cookie)).statusCode).toBe(409);
    const audited = (await searchRows(receptionist.user.id)).length;
    const patients = await patientCount();
    const refused = await addPatient(receptionist.cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(refused.body).not.toContain('Nghipondoka');
    expect((await search(receptionist.cookie)).statusCode).toBe(429);
    expect((await searchRows(receptionist.user.id)).length).toBe(audited);
    expect(await patientCount()).toBe(patients);
  });
});

describe('a refused record open', () => {
  const events = (userId: string) =>
    queryRows<{ event_type: string; metadata: { patientId: number | null; route: string } }>(
      t.db,
      sql`SELECT event_type, metadata FROM security_events WHERE user_id = ${userId} AND event_type = 'RECORD_ACCESS_REFUSED' ORDER BY id`,
    );

  it('writes a RECORD_ACCESS_REFUSED security event naming the user and patient, on the staff API and the FHIR API', async () => {
    const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: doctor.cookie } });
    expect((await get(`/api/patients/${twin.id}`)).statusCode).toBe(403);
    expect((await get(`/api/patients/${twin.id}/record-summary`)).statusCode).toBe(403);
    expect((await get(`/fhir/R4/Condition?patient=${twin.id}`)).statusCode).toBe(403);
    const rows = await events(doctor.user.id);
    expect(rows.map((r) => [r.metadata.patientId, r.metadata.route])).toEqual([
      [twin.id, '/api/patients/:id'],
      [twin.id, '/api/patients/:id/record-summary'],
      [twin.id, '/fhir/R4/Condition'],
    ]);

    // With a confirmed access the same reads succeed and write no such event.
    const grant = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${twin.id}/access`,
      headers: { cookie: doctor.cookie },
      payload: { consent: true },
    });
    expect(grant.statusCode).toBe(201);
    expect((await get(`/api/patients/${twin.id}`)).statusCode).toBe(200);
    expect((await events(doctor.user.id)).length).toBe(3);
  });
});
