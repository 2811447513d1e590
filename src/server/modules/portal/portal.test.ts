// GET /api/patient-portal/me and /access-log (SPEC §2, §3, §7; DESIGN.md §4, §6): the signed-in patient's own
// record in the portal's field names, audited; who opened it, with consent or the stated reason; staff refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffReference } from './portal.service';
import { sql } from 'drizzle-orm';
import { auditEntry } from '../../test/audit-fixtures';
import { writeAudit } from '../../audit/audit-writer';
import { insertClinicalRows, insertPatient, recordClinicianAccess, signInPatient, type SeededPatient } from '../../test/portal-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { createStaffUser, signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

/** The version fields the portal shows of a row stored once (additive: uuid, version, when it last changed). */
const version1 = { uuid: expect.any(String), version: 1, updatedAt: expect.any(String) };

let t: TestApp;
let patient: SeededPatient;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  patient = await insertPatient(t.db, { firstName: 'Ndinelao', lastName: 'Haufiku', dateOfBirth: '1990-07-21', sex: 'Female' });
  await insertClinicalRows(t.db, patient.id, { diagnoses: 2, appointments: 2, allergies: 3, medications: 2, vaccines: 2 });
  cookie = await signInPatient(t, patient);
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /api/patient-portal/me', () => {
  it('returns the patient and the lists the portal shows in the portal field names (coded fields added), newest first', async () => {
    const res = await get('/api/patient-portal/me', { cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.patient).toEqual({
      id: patient.id,
      firstName: 'Ndinelao',
      lastName: 'Haufiku',
      dateOfBirth: '1990-07-21',
      sex: 'Female',
      idNumber: patient.ncNumber,
      ncNumber: patient.ncNumber,
      contactNumber: '+264 81 555 0101',
      address: '12 Independence Avenue, Windhoek, Khomas',
      nextOfKin: 'Petrus Nangolo',
      nextOfKinContact: '+264 81 555 0102',
    });
    const { diagnoses, appointments, allergies, medications, vaccines } = body.medicalRecords;
    expect([diagnoses, appointments, allergies, medications, vaccines].map((l: unknown[]) => l.length)).toEqual([2, 2, 3, 2, 2]);
    const tag = `P${patient.id}`;
    expect(diagnoses[0]).toEqual({
      id: expect.any(Number),
      ...version1,
      condition: `Condition ${tag}-1`,
      code: null,
      codeSystem: null,
      codeDisplay: null,
      codings: null,
      status: 'Resolved',
      diagnosedDate: '2011-02-11',
      resolvedDate: '2012-03-12',
      description: `Notes ${tag}-1`,
      doctor: `Dr ${tag}`,
      facility: 'Oshakati State Hospital',
    });
    expect(appointments[1]).toEqual({
      id: expect.any(Number),
      ...version1,
      type: `Check-up ${tag}-0`,
      date: '2010-01-10',
      time: '09:30',
      findings: `Findings ${tag}-0`,
      status: 'Scheduled',
      doctor: `Dr ${tag}`,
      facility: 'Katutura State Hospital',
    });
    expect(allergies.map((a: { severity: string }) => a.severity)).toEqual(['Severe', 'Moderate', 'Mild']);
    expect(medications[1]).toEqual({
      id: expect.any(Number),
      ...version1,
      medication: `Medicine ${tag}-0`,
      code: null,
      codeSystem: null,
      codeDisplay: null,
      codings: null,
      dosage: '500mg',
      frequency: 'Twice daily',
      purpose: `Purpose ${tag}-0`,
      status: 'Active',
      prescribedDate: '2010-01-10',
      discontinuedDate: null,
      doctor: `Dr ${tag}`,
      nextReview: '2012-03-12',
    });
    expect(vaccines[1]).toEqual({
      id: expect.any(Number),
      ...version1,
      vaccine: `Vaccine ${tag}-0`,
      code: null,
      codeSystem: null,
      codeDisplay: null,
      codings: null,
      date: '2010-01-10',
      dose: 'Dose 1',
      facility: 'Rundu State Hospital',
      nextDue: null,
      batchNumber: `B-${tag}-0`,
    });
  });

  it('answers empty lists for a patient with no clinical rows', async () => {
    const bare = await insertPatient(t.db);
    const res = await get('/api/patient-portal/me', { cookie: await signInPatient(t, bare) });
    expect(res.json().medicalRecords).toEqual({
      diagnoses: [],
      appointments: [],
      allergies: [],
      medications: [],
      vaccines: [],
      'lab-results': [],
    });
  });

  it('writes one audit row per load: VIEW PATIENT by the patient, with the session', async () => {
    const before = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs WHERE patient_id = ${patient.id}`);
    await get('/api/patient-portal/me', { cookie, 'user-agent': 'phone/1.0' });
    await get('/api/patient-portal/me', { cookie });
    const rows = await queryRows<Record<string, unknown>>(
      t.db,
      sql`SELECT user_id, user_name, action, resource_type, resource_id, patient_id, user_agent, compliance_flags, session_id
          FROM audit_logs WHERE patient_id = ${patient.id} ORDER BY id DESC LIMIT 2`,
    );
    expect(rows).toHaveLength(2);
    expect(rows[1]).toEqual({
      user_id: `patient:${patient.id}`,
      user_name: `Patient ${patient.id}`,
      action: 'VIEW',
      resource_type: 'PATIENT',
      resource_id: String(patient.id),
      patient_id: patient.id,
      user_agent: 'phone/1.0',
      compliance_flags: null,
      session_id: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const after = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs WHERE patient_id = ${patient.id}`);
    expect(after!.n - before!.n).toBe(2);
  });

  it('answers 401 signed out and 403 to every staff role', async () => {
    expect((await get('/api/patient-portal/me')).statusCode).toBe(401);
    expect((await get('/api/patient-portal/access-log')).statusCode).toBe(401);
    for (const roleId of [1, 2, 3, 4, 5, 6, 403, 404, 405]) {
      const { cookie: staff } = await signInAs(t, roleId);
      for (const url of ['/api/patient-portal/me', '/api/patient-portal/access-log']) {
        const res = await get(url, { cookie: staff });
        expect(res.statusCode, `role ${roleId} ${url}`).toBe(403);
        expect(res.json()).toEqual({ message: 'The patient portal is for signed-in patients only', code: 'PATIENT_PORTAL_ONLY' });
      }
    }
  });

  it('ends the session with a 401 when the patient no longer exists', async () => {
    const gone = await insertPatient(t.db);
    const goneCookie = await signInPatient(t, gone);
    await t.db.execute(sql`DELETE FROM patients WHERE id = ${gone.id}`);
    // Only the activation code's and the activation's rows (decisions 016, 031) were written before; no read is audited now.
    const before = await queryRows(t.db, sql`SELECT id FROM audit_logs WHERE patient_id = ${gone.id}`);
    const res = await get('/api/patient-portal/me', { cookie: goneCookie });
    expect(res.statusCode).toBe(401);
    expect(String(res.headers['set-cookie'])).toMatch(/^nhr_sid=;/);
    expect((await get('/api/patient-portal/access-log', { cookie: goneCookie })).statusCode).toBe(401);
    const audited = await queryRows(t.db, sql`SELECT id FROM audit_logs WHERE patient_id = ${gone.id}`);
    expect(audited).toEqual(before);
    expect(before).toHaveLength(2);
  });
});

describe('GET /api/patient-portal/access-log', () => {
  let subject: SeededPatient;
  let subjectCookie: string;
  const doctor = { userId: '', userName: 'Tangeni Amutenya', facility: 'Katutura State Hospital' };

  beforeAll(async () => {
    subject = await insertPatient(t.db, { firstName: 'Johanna' });
    const other = await insertPatient(t.db);
    const user = await createStaffUser(t.db, {
      roleId: 3,
      firstName: 'Tangeni',
      lastName: 'Amutenya',
      facility: 'Katutura State Hospital',
    });
    doctor.userId = user.id;
    await recordClinicianAccess(t.db, doctor, subject.id, { consent: true });
    await recordClinicianAccess(t.db, doctor, other.id, { consent: false, reason: 'Other patient, never shown' });
    // Rows that are not accesses: a clinical list read, an edit, the patient's own portal loads, an audit-log read.
    await writeAudit(t.db, auditEntry({ actor: doctor, resourceType: 'DIAGNOSIS', patientId: subject.id }));
    await writeAudit(t.db, auditEntry({ actor: doctor, action: 'UPDATE', resourceType: 'DIAGNOSIS', patientId: subject.id }));
    await writeAudit(t.db, auditEntry({ action: 'SEARCH', resourceType: 'PATIENT', resourceId: null, patientId: subject.id }));
    await recordClinicianAccess(t.db, doctor, subject.id, { consent: false, reason: 'Unconscious on arrival, emergency treatment' });
    subjectCookie = await signInPatient(t, subject);
    await get('/api/patient-portal/me', { cookie: subjectCookie });
  });

  it('lists consent and break-the-glass accesses, searches and activation codes, newest first, with name, role, facility and reason', async () => {
    const res = await get('/api/patient-portal/access-log', { cookie: subjectCookie });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ page: 1, pageSize: 10, total: 5 });
    // The activation names the same staff member (name and stable id) as the code it used.
    expect(body.items[0].staffId).toBe(body.items[1].staffId);
    expect(body.items).toEqual([
      // The activation with that code (issue 21 item 1), named after the staff member who issued it.
      {
        id: expect.any(Number),
        kind: 'PORTAL_ACTIVATED',
        at: expect.any(String),
        name: 'Front Desk',
        staffId: expect.stringMatching(/^S-[0-9A-F]{8}$/), // the issuer's, not the patient session's
        role: { name: 'receptionist', displayName: 'Receptionist' },
        facility: 'Windhoek Central Hospital',
        reason: null,
        review: null,
      },
      // The code a desk issued for the patient's first sign-in (decision 016): a desk issuing itself a code is seen.
      {
        id: expect.any(Number),
        kind: 'ACTIVATION_CODE',
        at: expect.any(String),
        name: 'Front Desk',
        staffId: expect.stringMatching(/^S-[0-9A-F]{8}$/),
        role: { name: 'receptionist', displayName: 'Receptionist' },
        facility: 'Windhoek Central Hospital',
        reason: null,
        review: null,
      },
      {
        id: expect.any(Number),
        kind: 'BREAK_GLASS',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        name: 'Tangeni Amutenya',
        staffId: staffReference(doctor.userId), // stable whatever the name (issue 21 item 10)
        role: { name: 'doctor', displayName: 'Doctor' },
        facility: 'Katutura State Hospital',
        reason: 'Unconscious on arrival, emergency treatment',
        review: null,
      },
      {
        id: expect.any(Number),
        kind: 'SEARCH',
        at: expect.any(String),
        name: 'Ndapewa Nghipondoka',
        staffId: 'S-USER1', // the fixture's account id 'user-1'
        role: null,
        facility: 'Windhoek Central Hospital',
        reason: null,
        review: null,
      },
      {
        id: expect.any(Number),
        kind: 'CONSENT',
        at: expect.any(String),
        name: 'Tangeni Amutenya',
        staffId: staffReference(doctor.userId), // stable whatever the name (issue 21 item 10)
        role: { name: 'doctor', displayName: 'Doctor' },
        facility: 'Katutura State Hospital',
        reason: null,
        review: null,
      },
    ]);
    const ids = body.items.map((i: { id: number }) => i.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('pages through the history', async () => {
    for (let i = 0; i < 4; i++) await recordClinicianAccess(t.db, doctor, subject.id, { consent: false, reason: `Reason number ${i}` });
    const page1 = (await get('/api/patient-portal/access-log?page=1&pageSize=3', { cookie: subjectCookie })).json();
    const page2 = (await get('/api/patient-portal/access-log?page=2&pageSize=3', { cookie: subjectCookie })).json();
    const page3 = (await get('/api/patient-portal/access-log?page=3&pageSize=3', { cookie: subjectCookie })).json();
    expect([page1.total, page2.total, page3.total]).toEqual([9, 9, 9]);
    expect(page1.items.map((i: { reason: string }) => i.reason)).toEqual(['Reason number 3', 'Reason number 2', 'Reason number 1']);
    expect(page2.items).toHaveLength(3);
    expect(page3.items).toHaveLength(3);
    expect(page3.items[2].kind).toBe('CONSENT');
    const far = (await get('/api/patient-portal/access-log?page=50&pageSize=3', { cookie: subjectCookie })).json();
    expect(far).toEqual({ items: [], page: 50, pageSize: 3, total: 9 });
  });

  it('audits each read of the history as VIEW AUDIT_LOG by the patient', async () => {
    await get('/api/patient-portal/access-log?page=2&pageSize=2', { cookie: subjectCookie });
    const row = await queryOne(
      t.db,
      sql`SELECT user_id, action, resource_type, patient_id, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({
      user_id: `patient:${subject.id}`,
      action: 'VIEW',
      resource_type: 'AUDIT_LOG',
      patient_id: subject.id,
      new_values: { via: 'patient-portal', accessLog: { page: 2, pageSize: 2, returned: 2 } },
    });
  });

  it.each([['page=0'], ['page=-1'], ['page=abc'], ['pageSize=0'], ['pageSize=101'], ['pageSize=1.5'], [`page=${'9'.repeat(5000)}`]])(
    'answers 400 for %s',
    async (query) => {
      const res = await get(`/api/patient-portal/access-log?${query}`, { cookie: subjectCookie });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    },
  );

  it('ignores a patientId in the query: the patient comes from the session only', async () => {
    const other = await insertPatient(t.db);
    await recordClinicianAccess(t.db, doctor, other.id, { consent: false, reason: 'Only for the other patient' });
    const res = await get(`/api/patient-portal/access-log?patientId=${other.id}&pageSize=100`, { cookie: subjectCookie });
    expect(res.statusCode).toBe(200);
    expect(JSON.stringify(res.json())).not.toContain('Only for the other patient');
    expect(JSON.stringify(res.json())).not.toContain('Other patient, never shown');
  });
});
