// Portal activation (decision 016, issue 12 item 1): a code issued when a patient is added or at a clinic desk,
// stored hashed, 72 hours, one live code per patient, single use (also under concurrent use), audited and shown in
// the patient's access history; POST /api/auth/patient-activate sets the PIN and opens the portal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashPassword } from '../../security/password';
import { testClock } from '../../test/clock';
import { databaseFingerprint } from '../../test/db-fingerprint';
import { insertPatient, issueActivationCode, PATIENT_PIN, type SeededPatient } from '../../test/portal-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { useActivationCode } from './portal-credentials.repository';

const HOUR = 60 * 60_000;
const FAILED = { message: 'Invalid NC number, date of birth or activation code', code: 'PATIENT_ACTIVATION_FAILED' };
const CODE_FORMAT = /^[23456789ABCDEFGHJKMNPQRTUVWXYZ]{4}-[23456789ABCDEFGHJKMNPQRTUVWXYZ]{4}$/;
const clock = testClock(new Date('2026-03-02T08:00:00Z'));
let t: TestApp;
let desk: { cookie: string; user: { id: string } };
let ip = 0;
const nextAddress = (): string => `10.8.0.${++ip}`;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  desk = await signInAs(t, 5); // a receptionist: patients.create
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Body = Record<string, unknown>;
const post = (url: string, payload?: Body, headers: Record<string, string> = {}, remoteAddress = nextAddress()) =>
  t.app.inject({ method: 'POST', url, headers, remoteAddress, ...(payload ? { payload } : {}) });
const activate = (
  p: Pick<SeededPatient, 'ncNumber' | 'dateOfBirth'>,
  activationCode: string,
  change: Body = {},
  remoteAddress = nextAddress(),
) =>
  post(
    '/api/auth/patient-activate',
    { ncNumber: p.ncNumber, dateOfBirth: p.dateOfBirth, activationCode, pin: PATIENT_PIN, ...change },
    {},
    remoteAddress,
  );
const login = (p: Pick<SeededPatient, 'ncNumber' | 'dateOfBirth'>, pin = PATIENT_PIN) =>
  post('/api/auth/patient-login', { ncNumber: p.ncNumber, dateOfBirth: p.dateOfBirth, pin });
const issueAtDesk = (patientId: number | string, cookie = desk.cookie) =>
  post(`/api/patients/${patientId}/portal-activation`, undefined, { cookie });
const lastEvent = (type: string) =>
  queryOne<{ user_id: string | null; metadata: Record<string, unknown>; subject: string | null }>(
    t.db,
    sql`SELECT user_id, metadata, subject FROM security_events WHERE event_type = ${type} ORDER BY id DESC LIMIT 1`,
  );

describe('a code when the patient is added', () => {
  it('answers the code once with the new patient, stores only its argon2id hash, and audits the issue', async () => {
    const res = await post(
      '/api/admin/patients',
      {
        firstName: 'Ndapewa',
        lastName: 'Shikongo',
        dateOfBirth: '1994-02-11',
        sex: 'Female',
        contactNumber: '+264 81 555 0199',
        address: 'Erf 12, Ongwediva',
        nextOfKin: 'Selma Shikongo',
        nextOfKinContact: '+264 81 555 0198',
        confirmDuplicate: true,
      },
      { cookie: desk.cookie },
    );
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json() as { id: number; idNumber: string; portalActivation: { code: string; expiresAt: string } };
    expect(body.portalActivation.code).toMatch(CODE_FORMAT);
    expect(body.portalActivation.expiresAt).toBe(new Date(clock.now().getTime() + 72 * HOUR).toISOString());
    const stored = await queryOne<{ code_hash: string; pin_hash: string | null }>(
      t.db,
      sql`SELECT code_hash, pin_hash FROM patient_portal_credentials WHERE patient_id = ${body.id}`,
    );
    expect(stored?.code_hash).toMatch(/^\$argon2id\$/);
    expect(stored?.pin_hash).toBeNull();
    const plain = body.portalActivation.code.replace('-', '');
    const leaks = await queryRows(
      t.db,
      sql`SELECT 1 FROM audit_logs WHERE new_values::text LIKE ${'%' + plain.slice(0, 4) + '%' + plain.slice(4) + '%'}
          UNION ALL SELECT 1 FROM security_events WHERE metadata::text LIKE ${'%' + plain.slice(4) + '%'}`,
    );
    expect(leaks).toEqual([]);
    const audit = await queryRows(
      t.db,
      sql`SELECT action, compliance_flags, new_values->'portalActivation'->>'via' AS via FROM audit_logs WHERE patient_id = ${body.id} ORDER BY id`,
    );
    expect(audit).toEqual([
      { action: 'CREATE', compliance_flags: null, via: null },
      { action: 'UPDATE', compliance_flags: { type: 'PORTAL_ACTIVATION' }, via: 'registration' },
    ]);
    expect(await lastEvent('PORTAL_CODE_ISSUED')).toMatchObject({
      user_id: desk.user.id,
      metadata: { patientId: body.id, via: 'registration' },
    });

    // The patient activates with it (the dash and case do not matter) and is signed in.
    const patient = { ncNumber: body.idNumber, dateOfBirth: '1994-02-11' };
    const activated = await activate(patient, body.portalActivation.code.toLowerCase().replace('-', ' '));
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toEqual({ message: 'Login successful', patient: { id: body.id, firstName: 'Ndapewa' } });
    const cookie = activated.cookies.find((c) => c.name === 'nhr_sid')!;
    const me = await t.app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie: `nhr_sid=${cookie.value}` } });
    expect(me.statusCode).toBe(200);
    expect(await lastEvent('PORTAL_PIN_SET')).toMatchObject({ metadata: { kind: 'patient', patientId: body.id } });
    expect(await lastEvent('LOGIN_SUCCESS')).toMatchObject({
      subject: body.idNumber,
      metadata: { method: 'activation_code', patientId: body.id },
    });
    // From now on the PIN signs in.
    expect((await login(patient)).statusCode).toBe(200);
    expect((await login(patient, '999999')).statusCode).toBe(401);
  });
});

describe('a code from the clinic desk', () => {
  it('is issued by patients.create, audited with the role, a security event, and listed in the access history', async () => {
    const p = await insertPatient(t.db);
    const res = await issueAtDesk(p.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      code: expect.stringMatching(CODE_FORMAT),
      expiresAt: new Date(clock.now().getTime() + 72 * HOUR).toISOString(),
      needsCurrentPin: false,
    });
    const audit = await queryOne(
      t.db,
      sql`SELECT user_id, action, resource_type, resource_id, compliance_flags, new_values FROM audit_logs WHERE patient_id = ${p.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({
      user_id: desk.user.id,
      action: 'UPDATE',
      resource_type: 'PATIENT',
      resource_id: String(p.id),
      compliance_flags: { type: 'PORTAL_ACTIVATION' },
      new_values: {
        portalActivation: { via: 'desk', expiresAt: new Date(clock.now().getTime() + 72 * HOUR).toISOString(), needsCurrentPin: false },
        role: { name: 'receptionist', displayName: 'Receptionist' },
      },
    });
    expect(await lastEvent('PORTAL_CODE_ISSUED')).toMatchObject({ user_id: desk.user.id, metadata: { patientId: p.id, via: 'desk' } });

    const activated = await activate(p, (res.json() as { code: string }).code);
    const cookie = `nhr_sid=${activated.cookies.find((c) => c.name === 'nhr_sid')!.value}`;
    const history = await t.app.inject({ method: 'GET', url: '/api/patient-portal/access-log', headers: { cookie } });
    expect(history.statusCode).toBe(200);
    const items = (history.json() as { items: { kind: string; name: string; role: unknown; facility: string }[] }).items;
    // Issue 21 item 1: the activation too, named after the staff member who issued the code.
    expect(items).toEqual([
      expect.objectContaining({
        kind: 'PORTAL_ACTIVATED',
        name: 'Test Role5',
        role: { name: 'receptionist', displayName: 'Receptionist' },
        facility: 'Windhoek Central Hospital',
      }),
      expect.objectContaining({
        kind: 'ACTIVATION_CODE',
        name: 'Test Role5',
        role: { name: 'receptionist', displayName: 'Receptionist' },
        facility: 'Windhoek Central Hospital',
      }),
    ]);
  });

  it('is refused to roles without patients.create, to patients and when signed out, and changes nothing', async () => {
    const p = await insertPatient(t.db);
    const before = await databaseFingerprint(t.db);
    for (const roleId of [3, 4, 6, 403]) {
      const { cookie } = await signInAs(t, roleId);
      const res = await issueAtDesk(p.id, cookie);
      expect(res.statusCode, `role ${roleId}`).toBe(403);
      expect(res.json()).toMatchObject({ code: 'PERMISSION_REQUIRED' });
    }
    expect((await post(`/api/patients/${p.id}/portal-activation`)).statusCode).toBe(401);
    const after = await databaseFingerprint(t.db);
    const changed = Object.keys(after).filter((k) => after[k] !== before[k]);
    // Only the sign-ins of the staff used here changed anything (sessions and their events).
    expect(changed.filter((k) => !/sessions|security_events|users/.test(k))).toEqual([]);
    const codes = await queryRows(t.db, sql`SELECT 1 FROM patient_portal_credentials WHERE patient_id = ${p.id}`);
    expect(codes).toEqual([]);
  });

  it('answers 404 for an unknown patient and 400 for a bad id, changing nothing', async () => {
    const before = await databaseFingerprint(t.db);
    const unknown = await issueAtDesk(999_999);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'PATIENT_NOT_FOUND' });
    for (const bad of ['abc', '0', '-1', '1.5', '99999999999']) expect((await issueAtDesk(bad)).statusCode, bad).toBe(400);
    // The unknown patient counts towards the desk's hourly limit of codes (decision 031); nothing else changed.
    const { rate_limit_counts: _counted, ...after } = await databaseFingerprint(t.db);
    const { rate_limit_counts: _before, ...unchanged } = before;
    expect(after).toEqual(unchanged);
  });

  it('replaces an earlier code; the old PIN keeps working until the new code is used (a PIN reset)', async () => {
    const p = await insertPatient(t.db);
    const first = await issueActivationCode(t.db, p.id, clock.now());
    expect((await activate(p, first.code)).statusCode).toBe(200);
    const older = (await issueAtDesk(p.id)).json() as { code: string };
    const newer = (await issueAtDesk(p.id)).json() as { code: string };
    expect((await login(p)).statusCode).toBe(200); // the PIN still works while a code is live
    expect((await activate(p, older.code, { pin: '274916' })).statusCode).toBe(401);
    expect((await activate(p, newer.code, { pin: '274916', currentPin: PATIENT_PIN })).statusCode).toBe(200);
    expect((await login(p)).statusCode).toBe(401);
    expect((await login(p, '274916')).statusCode).toBe(200);
  });
});

describe('using a code', () => {
  it('works once: a second use is refused with the one answer and recorded as a used code', async () => {
    const p = await insertPatient(t.db);
    const { code } = await issueActivationCode(t.db, p.id, clock.now());
    expect((await activate(p, code)).statusCode).toBe(200);
    const again = await activate(p, code, { pin: '318642' });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual(FAILED);
    expect(await lastEvent('LOGIN_FAILURE')).toMatchObject({
      metadata: { method: 'activation_code', reason: 'code_already_used', patientId: p.id },
    });
    expect((await login(p, '318642')).statusCode).toBe(401);
  });

  it('works once under two concurrent activations: one opens the portal, the other is refused', async () => {
    const p = await insertPatient(t.db);
    const { code } = await issueActivationCode(t.db, p.id, clock.now());
    const [a, b] = await Promise.all([activate(p, code, { pin: '620394' }, '10.8.1.1'), activate(p, code, { pin: '845027' }, '10.8.1.2')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 401]);
    const winner = a.statusCode === 200 ? '620394' : '845027';
    const loser = a.statusCode === 200 ? '845027' : '620394';
    expect((await login(p, winner)).statusCode).toBe(200);
    expect((await login(p, loser)).statusCode).toBe(401);
  });

  it('the conditional update lets exactly one of two simultaneous uses of the checked hash through (two processes)', async () => {
    const p = await insertPatient(t.db);
    await issueActivationCode(t.db, p.id, clock.now());
    const row = await queryOne<{ code_hash: string }>(
      t.db,
      sql`SELECT code_hash FROM patient_portal_credentials WHERE patient_id = ${p.id}`,
    );
    const pinHash = await hashPassword('123123');
    const use = () => useActivationCode(t.db, { patientId: p.id, checkedCodeHash: row!.code_hash, pinHash, now: clock.now() });
    const results = await Promise.all([use(), use(), use()]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('expires after 72 hours', async () => {
    const early = await insertPatient(t.db);
    const late = await insertPatient(t.db);
    const a = await issueActivationCode(t.db, early.id, clock.now());
    const b = await issueActivationCode(t.db, late.id, clock.now());
    clock.advance(72 * HOUR - 60_000);
    expect((await activate(early, a.code)).statusCode).toBe(200);
    clock.advance(60_000);
    const expired = await activate(late, b.code);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual(FAILED);
    expect(await lastEvent('LOGIN_FAILURE')).toMatchObject({ metadata: { reason: 'code_expired', patientId: late.id } });
  });

  it('answers a wrong code, a wrong date, an unknown number and no code alike, and locks after 5 failures', async () => {
    const p = await insertPatient(t.db);
    const never = await insertPatient(t.db);
    const { code } = await issueActivationCode(t.db, p.id, clock.now());
    const wrongCode = code === 'ABCD-EFGH' ? 'ABCD-EFGJ' : 'ABCD-EFGH';
    const address = nextAddress();
    const answers = [
      await activate(p, wrongCode, {}, address),
      await activate(p, code, { dateOfBirth: '1999-09-09' }, address),
      await activate(never, code, {}, address),
      await activate({ ncNumber: '79999999999', dateOfBirth: p.dateOfBirth }, code, {}, address),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.body).toBe(answers[0]!.body);
    }
    const reasons = await queryRows<{ reason: string }>(
      t.db,
      sql`SELECT metadata->>'reason' AS reason FROM security_events WHERE ip_address = ${address} ORDER BY id`,
    );
    expect(reasons.map((r) => r.reason)).toEqual(['wrong_code', 'wrong_date_of_birth', 'no_code', 'unknown_nc_number']);
    // Two failures were for p's number: three more lock it, and then even the right code is refused.
    for (let i = 0; i < 3; i++) expect((await activate(p, wrongCode, {}, address)).statusCode).toBe(401);
    const locked = await activate(p, code, {}, nextAddress());
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toMatchObject({ code: 'LOCKED_OUT' });
    clock.advance(15 * 60_000 + 1000);
    expect((await activate(p, code)).statusCode).toBe(200);
  });

  it('is refused from a browser with a live staff session, and recorded', async () => {
    desk = await signInAs(t, 5); // the clock moved on: a fresh desk session
    const p = await insertPatient(t.db);
    const { code } = await issueActivationCode(t.db, p.id, clock.now());
    const res = await post(
      '/api/auth/patient-activate',
      { ncNumber: p.ncNumber, dateOfBirth: p.dateOfBirth, activationCode: code, pin: PATIENT_PIN },
      { cookie: desk.cookie },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PORTAL_FROM_STAFF_SESSION' });
    expect(await lastEvent('PORTAL_LOGIN_FROM_STAFF_SESSION')).toMatchObject({ user_id: desk.user.id });
    expect((await activate(p, code)).statusCode).toBe(200); // the code was not used up
  });

  it.each([
    ['a short code', { activationCode: 'ABCD-EFG' }, 'activationCode', 'validation:activationCodeFormat'],
    ['a look-alike symbol', { activationCode: 'ABCD-EFG0' }, 'activationCode', 'validation:activationCodeFormat'],
    ['a missing code', { activationCode: undefined }, 'activationCode', 'validation:activationCodeFormat'],
    ['a huge code', { activationCode: 'A'.repeat(50_000) }, 'activationCode', 'validation:activationCodeFormat'],
    ['a 4-digit PIN', { pin: '1234' }, 'pin', 'validation:pinFormat'],
    ['a missing PIN', { pin: undefined }, 'pin', 'validation:pinFormat'],
    ['a guessable PIN', { pin: '111111' }, 'pin', 'validation:pinTooEasy'],
    ['the date of birth as the PIN', { pin: '010190' }, 'pin', 'validation:pinTooEasy'],
    // Issue 21 item 3: the most common six-digit PINs (src/contracts/data/common-six-digit-pins.json).
    ['a keypad column pattern (147258)', { pin: '147258' }, 'pin', 'validation:pinTooCommon'],
    ['a keypad diagonal pattern (159753)', { pin: '159753' }, 'pin', 'validation:pinTooCommon'],
    ['mirrored halves (123321)', { pin: '123321' }, 'pin', 'validation:pinTooCommon'],
    ['doubled running digits (112233)', { pin: '112233' }, 'pin', 'validation:pinTooCommon'],
    ['a bad NC number', { ncNumber: '12' }, 'ncNumber', 'validation:ncNumberLength'],
    ['a NUL in the code', { activationCode: 'ABCD\u0000EFGH' }, 'activationCode', expect.any(String)],
  ])('answers 400 for %s and records nothing', async (_name, change, path, message) => {
    const before = await databaseFingerprint(t.db);
    const res = await post('/api/auth/patient-activate', {
      ncNumber: '71234567890',
      dateOfBirth: '1990-01-01',
      activationCode: 'ABCD-EFGH',
      pin: '123456',
      ...change,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', issues: expect.arrayContaining([{ path, message }]) });
    expect(await databaseFingerprint(t.db)).toEqual(before);
  });
});
