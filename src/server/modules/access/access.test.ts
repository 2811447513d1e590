// Record access (DESIGN.md §4): POST /api/patients/{id}/access and GET /api/patients/{id}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createSession } from '../../context/session';
import { testClock } from '../../test/clock';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { signIn, signInAs, type StaffUser } from '../../test/staff';
import { queryOne, queryRows } from '../../test/sql';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2025-03-10T08:00:00Z'));
let t: TestApp;
let doctor: { cookie: string; user: StaffUser };
let nurse: { cookie: string; user: StaffUser };
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  doctor = await signInAs(t, 3);
  nurse = await signInAs(t, 4);
  patient = await createPatient(t.db);
});
afterAll(async () => {
  await t?.close();
});

const grant = (cookie: string, patientId: number, payload: unknown) =>
  t.app.inject({ method: 'POST', url: `/api/patients/${patientId}/access`, headers: { cookie }, payload: payload as object });
const demographics = (cookie: string, patientId: number) =>
  t.app.inject({ method: 'GET', url: `/api/patients/${patientId}`, headers: { cookie } });
const grantCount = async (): Promise<number> => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM access_grants`))!.n;
const auditCount = async (): Promise<number> => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n;

describe('POST /api/patients/{id}/access', () => {
  it('with consent: 201, a grant for 8 hours, and a VIEW PATIENT audit row flagged CONSENT', async () => {
    const res = await grant(doctor.cookie, patient.id, { consent: true });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      patientId: patient.id,
      consent: true,
      reason: null,
      grantedAt: '2025-03-10T08:00:00.000Z',
      expiresAt: '2025-03-10T16:00:00.000Z',
    });
    const audit = await queryOne(
      t.db,
      sql`SELECT user_id, action, resource_type, resource_id, patient_id, compliance_flags FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      user_id: doctor.user.id,
      action: 'VIEW',
      resource_type: 'PATIENT',
      resource_id: String(patient.id),
      patient_id: patient.id,
      compliance_flags: { type: 'CONSENT' },
    });
  });

  it('without consent: the trimmed reason is stored and audited as BREAK_GLASS', async () => {
    const res = await grant(nurse.cookie, patient.id, { consent: false, reason: '  Unconscious patient in casualty  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json().reason).toBe('Unconscious patient in casualty');
    const audit = await queryOne<{ compliance_flags: unknown }>(
      t.db,
      sql`SELECT compliance_flags FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit!.compliance_flags).toEqual({ type: 'BREAK_GLASS', reason: 'Unconscious patient in casualty' });
  });

  it('with consent, a reason is optional and kept when given', async () => {
    const res = await grant(nurse.cookie, patient.id, { consent: true, reason: 'Asked at the bedside' });
    expect(res.statusCode).toBe(201);
    expect(res.json().reason).toBe('Asked at the bedside');
  });

  it.each([
    ['no body fields', {}, 'consent', 'validation:accessChoiceRequired'],
    ['consent not a boolean', { consent: 'yes' }, 'consent', 'validation:accessChoiceRequired'],
    ['no reason without consent', { consent: false }, 'reason', 'validation:accessReasonLength'],
    ['a blank reason', { consent: false, reason: '     ' }, 'reason', 'validation:accessReasonLength'],
    ['a 4-character reason', { consent: false, reason: ' abcd ' }, 'reason', 'validation:accessReasonLength'],
    ['a 501-character reason', { consent: false, reason: 'x'.repeat(501) }, 'reason', 'validation:accessReasonLength'],
    ['a 10,000-character reason', { consent: false, reason: 'x'.repeat(10_000) }, 'reason', 'validation:accessReasonLength'],
    ['a reason that is not text', { consent: false, reason: 12345 }, 'reason', 'validation:accessReasonLength'],
  ])('refuses %s with 400 and writes nothing', async (_label, payload, path, message) => {
    const [grants, audits] = [await grantCount(), await auditCount()];
    const res = await grant(doctor.cookie, patient.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({ path, message });
    expect([await grantCount(), await auditCount()]).toEqual([grants, audits]);
  });

  it('accepts a reason of exactly 5 and 500 characters', async () => {
    expect((await grant(doctor.cookie, patient.id, { consent: false, reason: 'abcde' })).statusCode).toBe(201);
    expect((await grant(doctor.cookie, patient.id, { consent: false, reason: 'y'.repeat(500) })).statusCode).toBe(201);
  });

  it('refuses unknown fields with 400', async () => {
    const res = await grant(doctor.cookie, patient.id, { consent: true, userId: nurse.user.id });
    expect(res.statusCode).toBe(400);
  });

  it('answers 404 for an unknown patient and 400 for a malformed id', async () => {
    expect((await grant(doctor.cookie, 999_999, { consent: true })).statusCode).toBe(404);
    expect((await grant(doctor.cookie, 999_999, { consent: true })).json()).toEqual({
      message: 'Patient not found',
      code: 'PATIENT_NOT_FOUND',
    });
    for (const id of ['abc', '0', '-1', '1.5', '99999999999']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/patients/${id}/access`,
        headers: { cookie: doctor.cookie },
        payload: { consent: true },
      });
      expect(res.statusCode, id).toBe(400);
    }
  });

  it('is refused without records.read (receptionist, auditor, administrator), signed out and for a patient session', async () => {
    for (const roleId of [5, 6, 2]) {
      const { cookie } = await signInAs(t, roleId);
      const res = await grant(cookie, patient.id, { consent: true });
      expect(res.statusCode, `role ${roleId}`).toBe(403);
    }
    expect((await grant('', patient.id, { consent: true })).statusCode).toBe(401);
    const session = await createSession(t.db, { kind: 'patient', patientId: patient.id }, clock.now());
    expect((await grant(`nhr_sid=${session.token}`, patient.id, { consent: true })).statusCode).toBe(401);
  });

  it('lets Basic Life Support confirm access (records.read)', async () => {
    const { cookie } = await signInAs(t, 405);
    expect((await grant(cookie, patient.id, { consent: true })).statusCode).toBe(201);
  });
});

describe('GET /api/patients/{id}', () => {
  it('answers 403 without a grant and writes no audit row', async () => {
    const other = await createPatient(t.db, { lastName: 'Iipinge' });
    const before = await auditCount();
    const res = await demographics(doctor.cookie, other.id);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Access to this record has not been confirmed', code: 'ACCESS_GRANT_REQUIRED' });
    expect(await auditCount()).toBe(before);
  });

  it('returns the SPEC §3 patient fields with a grant, audited as VIEW PATIENT', async () => {
    const res = await demographics(doctor.cookie, patient.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      id: patient.id,
      firstName: 'Ndeshipanda',
      lastName: 'Hamutenya',
      dateOfBirth: '1980-03-14',
      sex: 'Female',
      idNumber: patient.idNumber,
      contactNumber: '+264 81 555 0101',
      address: '12 Independence Avenue, Windhoek, Khomas',
      nextOfKin: 'Tuyeni Hamutenya',
      nextOfKinContact: '+264 81 555 0102',
    });
    const audit = await queryOne(
      t.db,
      sql`SELECT user_id, action, resource_type, patient_id, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      user_id: doctor.user.id,
      action: 'VIEW',
      resource_type: 'PATIENT',
      patient_id: patient.id,
      new_values: { view: 'DEMOGRAPHICS' },
    });
  });

  it("does not let one user's grant open the record for another", async () => {
    const other = await createPatient(t.db, { lastName: 'Nangolo' });
    expect((await grant(doctor.cookie, other.id, { consent: true })).statusCode).toBe(201);
    expect((await demographics(doctor.cookie, other.id)).statusCode).toBe(200);
    const { cookie } = await signInAs(t, 3);
    expect((await demographics(cookie, other.id)).statusCode).toBe(403);
  });

  it('answers 404 for an unknown patient', async () => {
    expect((await demographics(doctor.cookie, 987_654)).statusCode).toBe(404);
  });
});

describe('grant expiry (8 hours, injectable clock)', () => {
  it('opens the record until 8 hours after the grant and refuses it afterwards', async () => {
    const user = await signInAs(t, 4);
    const p = await createPatient(t.db, { lastName: 'Shilongo' });
    expect((await grant(user.cookie, p.id, { consent: true })).statusCode).toBe(201);
    // Staff sessions idle out after 30 minutes: sign in again after moving the clock, as a clinician would.
    clock.advance(8 * 3_600_000 - 60_000);
    const cookie = await signIn(t.app, user.user.email, user.user.password);
    expect((await demographics(cookie, p.id)).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/api/patients/${p.id}/diagnoses`, headers: { cookie } })).statusCode).toBe(200);
    clock.advance(60_000);
    expect((await demographics(cookie, p.id)).statusCode).toBe(403);
    const list = await t.app.inject({ method: 'GET', url: `/api/patients/${p.id}/diagnoses`, headers: { cookie } });
    expect(list.statusCode).toBe(403);
    // A new confirmation opens it again.
    expect((await grant(cookie, p.id, { consent: false, reason: 'Follow-up visit today' })).statusCode).toBe(201);
    expect((await demographics(cookie, p.id)).statusCode).toBe(200);
    const rows = await queryRows<{ expires_at: Date }>(
      t.db,
      sql`SELECT expires_at FROM access_grants WHERE patient_id = ${p.id} ORDER BY id`,
    );
    expect(rows).toHaveLength(2);
  });
});
