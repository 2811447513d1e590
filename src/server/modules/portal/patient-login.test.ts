// POST /api/auth/patient-login (SPEC §5, §7; DESIGN.md §5; decision 016): NC number, date of birth and PIN open a
// patient session, one answer for every wrong credential (and for a portal never activated), the throttle per NC
// number and per address, a security event for every attempt, and bad input 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { hashToken } from '../../context/session';
import { testClock } from '../../test/clock';
import { activatePatient, insertPatient, nextNcNumber, PATIENT_PIN, signInPatient, type SeededPatient } from '../../test/portal-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const MINUTE = 60_000;
const FAILED = { message: 'Invalid NC number, date of birth or PIN', code: 'PATIENT_LOGIN_FAILED' };
const LOCKED = { message: 'Too many failed sign-in attempts. Try again in 15 minutes.', code: 'LOCKED_OUT' };
const clock = testClock(new Date('2026-03-02T08:00:00Z'));
let t: TestApp;
let patient: SeededPatient;
let ip = 0;
/** Each test signs in from its own address, so the per-IP limit only shows where a test wants it. */
const nextAddress = (): string => `10.7.0.${++ip}`;

beforeAll(async () => {
  t = await createTestApp({ now: clock.now });
  patient = await insertPatient(t.db, { firstName: 'Ndinelao', dateOfBirth: '1990-07-21' });
  await activatePatient(t.db, patient, PATIENT_PIN, clock.now);
});

/** A patient inserted and activated with PATIENT_PIN through the real services. */
const activePatient = async (overrides: Parameters<typeof insertPatient>[1] = {}): Promise<SeededPatient> => {
  const p = await insertPatient(t.db, overrides);
  await activatePatient(t.db, p, PATIENT_PIN, clock.now);
  return p;
};
/** The three fields of a sign-in for this patient, with the right PIN unless changed. */
const creds = (p: Pick<SeededPatient, 'ncNumber' | 'dateOfBirth'>, change: Record<string, unknown> = {}) => ({
  ncNumber: p.ncNumber,
  dateOfBirth: p.dateOfBirth,
  pin: PATIENT_PIN,
  ...change,
});
afterAll(async () => {
  await t?.close();
});

const login = (payload: unknown, remoteAddress = '10.7.255.1', headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/patient-login', payload: payload as object, remoteAddress, headers });
const me = (cookie: string) => t.app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie } });

describe('signing in', () => {
  it('opens a patient session and answers with the first name', async () => {
    const res = await login(creds(patient), nextAddress());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Login successful', patient: { id: patient.id, firstName: 'Ndinelao' } });
    const cookie = res.cookies.find((c) => c.name === 'nhr_sid')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.sameSite).toBe('Lax');
    const row = await queryOne<{ sess: { kind: string; patientId: number }; ttl: number }>(
      t.db,
      sql`SELECT sess, (extract(epoch FROM expire) * 1000)::float8 - ${clock.now().getTime()}::float8 AS ttl
          FROM sessions WHERE sid = ${hashToken(cookie.value)}`,
    );
    expect(row?.sess).toMatchObject({ kind: 'patient', patientId: patient.id });
    expect(row?.ttl).toBe(15 * MINUTE);
    expect((await me(`nhr_sid=${cookie.value}`)).statusCode).toBe(200);
  });

  it('accepts the NC number with surrounding spaces', async () => {
    const res = await login(creds(patient, { ncNumber: ` ${patient.ncNumber} ` }), nextAddress());
    expect(res.statusCode).toBe(200);
  });

  it('gives a new session id at every sign-in and ends the patient session the request came with', async () => {
    const address = nextAddress();
    const first = await signInPatient(t, patient, address);
    const res = await login(creds(patient), address, { cookie: first });
    const second = `nhr_sid=${res.cookies.find((c) => c.name === 'nhr_sid')!.value}`;
    expect(second).not.toBe(first);
    expect((await me(first)).statusCode).toBe(401);
    expect((await me(second)).statusCode).toBe(200);
  });

  it('refuses a portal sign-in from a browser that holds a live staff session, and records it (issue 10 item 1)', async () => {
    const address = nextAddress();
    const { cookie: staff, user } = await signInAs(t, 3);
    const fromStaff = await login(creds(patient), address, { cookie: staff });
    expect(fromStaff.statusCode).toBe(403);
    expect(fromStaff.json()).toEqual({
      message: 'Sign out of the staff system before signing in to the patient portal',
      code: 'PORTAL_FROM_STAFF_SESSION',
    });
    expect(fromStaff.headers['set-cookie']).toBeUndefined();
    // The staff session is untouched and no patient session was opened.
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: staff } })).statusCode).toBe(200);
    const event = await queryOne(
      t.db,
      sql`SELECT event_type, user_id, severity, metadata, ip_address FROM security_events ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({
      event_type: 'PORTAL_LOGIN_FROM_STAFF_SESSION',
      user_id: user.id,
      severity: 'high',
      metadata: { kind: 'patient', ncNumber: patient.ncNumber, reason: 'staff_session' },
      ip_address: address,
    });
    // The same browser after signing out of the staff system may sign the patient in.
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie: staff } });
    expect((await login(creds(patient), address, { cookie: staff })).statusCode).toBe(200);
  });

  it('records the success as a security event naming the NC number, never the date of birth', async () => {
    await signInPatient(t, patient, nextAddress());
    const event = await queryOne<{ event_type: string; subject: string; metadata: unknown; ip_address: string }>(
      t.db,
      sql`SELECT event_type, subject, metadata, ip_address FROM security_events ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({
      event_type: 'LOGIN_SUCCESS',
      subject: patient.ncNumber,
      metadata: { kind: 'patient', method: 'pin', patientId: patient.id },
      ip_address: `10.7.0.${ip}`,
    });
    const leaked = await queryRows(t.db, sql`SELECT 1 FROM security_events WHERE metadata::text LIKE ${'%' + patient.dateOfBirth + '%'}`);
    expect(leaked).toEqual([]);
  });

  it('logout ends the patient session and records it', async () => {
    const cookie = await signInPatient(t, patient, nextAddress());
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Logged out successfully' });
    expect(String(res.headers['set-cookie'])).toMatch(/^nhr_sid=;/);
    expect((await me(cookie)).statusCode).toBe(401);
    const event = await queryOne(t.db, sql`SELECT event_type, metadata FROM security_events ORDER BY id DESC LIMIT 1`);
    expect(event).toEqual({ event_type: 'LOGOUT', metadata: { kind: 'patient', patientId: patient.id } });
  });
});

describe('the PIN (decision 016)', () => {
  it('NC number and date of birth alone no longer open the portal: without a PIN the answer is 400', async () => {
    const res = await login({ ncNumber: patient.ncNumber, dateOfBirth: patient.dateOfBirth }, nextAddress());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'pin', message: 'validation:pinFormat' }] });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a wrong PIN with the one answer, and records the reason', async () => {
    const address = nextAddress();
    const res = await login(creds(patient, { pin: '000000' }), address);
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(FAILED);
    const event = await queryOne(t.db, sql`SELECT event_type, metadata FROM security_events ORDER BY id DESC LIMIT 1`);
    expect(event).toEqual({
      event_type: 'LOGIN_FAILURE',
      metadata: { kind: 'patient', method: 'pin', reason: 'wrong_pin', patientId: patient.id },
    });
  });

  it('answers a patient who never activated exactly as a wrong PIN, whatever PIN is sent', async () => {
    const address = nextAddress();
    const never = await insertPatient(t.db);
    const notActivated = await login(creds(never), address);
    const wrongPin = await login(creds(patient, { pin: '111111' }), address);
    expect(notActivated.statusCode).toBe(401);
    expect(notActivated.body).toBe(wrongPin.body);
    const keys = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => k !== 'date')
        .sort();
    expect(keys(notActivated.headers)).toEqual(keys(wrongPin.headers));
    const reasons = await queryRows<{ reason: string }>(
      t.db,
      sql`SELECT metadata->>'reason' AS reason FROM security_events WHERE ip_address = ${address} ORDER BY id`,
    );
    expect(reasons.map((r) => r.reason)).toEqual(['not_activated', 'wrong_pin']);
  });

  it('takes as long for an unknown number or a portal never activated as for a wrong PIN (one argon2id check each)', async () => {
    const activated = await Promise.all(Array.from({ length: 3 }, () => activePatient()));
    const never = await Promise.all(Array.from({ length: 3 }, () => insertPatient(t.db)));
    const timed = async (payload: object): Promise<number> => {
      const started = performance.now();
      expect((await login(payload, nextAddress())).statusCode).toBe(401);
      return performance.now() - started;
    };
    const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const wrongPin: number[] = [];
    const unknown: number[] = [];
    const notActivated: number[] = [];
    // Interleaved, 3 attempts per number (below the lock), so load on the machine falls on all three alike.
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++) {
        wrongPin.push(await timed(creds(activated[i]!, { pin: '000000' })));
        unknown.push(await timed(creds(patient, { ncNumber: nextNcNumber() })));
        notActivated.push(await timed(creds(never[i]!)));
      }
    }
    // Without the dummy hash an unknown number answers in a few milliseconds, a wrong PIN after tens.
    const medians = `medians (ms): wrong PIN ${median(wrongPin).toFixed(1)}, unknown ${median(unknown).toFixed(1)}, never activated ${median(notActivated).toFixed(1)}`;
    expect(median(unknown) / median(wrongPin), medians).toBeGreaterThan(0.6);
    expect(median(notActivated) / median(wrongPin), medians).toBeGreaterThan(0.6);
  });

  it('locks the number after 5 wrong PINs: the right PIN is refused for 15 minutes', async () => {
    const p = await activePatient();
    const address = nextAddress();
    for (let i = 0; i < 5; i++) expect((await login(creds(p, { pin: `12345${i}` }), address)).statusCode).toBe(401);
    const locked = await login(creds(p), nextAddress());
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(LOCKED);
    clock.advance(15 * MINUTE + 1000);
    expect((await login(creds(p), address)).statusCode).toBe(200);
  });

  it('a staff user who harvested NC number and date of birth from search cannot sign in as the patient', async () => {
    const { cookie: desk } = await signInAs(t, 5); // a receptionist: patients.search
    const search = await t.app.inject({
      method: 'POST',
      url: '/api/patients/search',
      headers: { cookie: desk },
      payload: { method: 'id-number', idNumber: patient.ncNumber },
    });
    expect(search.statusCode).toBe(200);
    const [hit] = search.json() as { idNumber: string; dateOfBirth: string }[];
    expect(hit).toMatchObject({ idNumber: patient.ncNumber, dateOfBirth: patient.dateOfBirth });
    const harvested = { ncNumber: hit!.idNumber, dateOfBirth: hit!.dateOfBirth };
    // From another machine: the two fields are not enough, and guessing the PIN fails like any wrong PIN.
    const address = nextAddress();
    expect((await login(harvested, address)).statusCode).toBe(400);
    const guessed = await login({ ...harvested, pin: '123456' }, address);
    expect(guessed.statusCode).toBe(401);
    expect(guessed.headers['set-cookie']).toBeUndefined();
    // From the desk's own browser: refused before any PIN is tried.
    expect((await login({ ...harvested, pin: PATIENT_PIN }, address, { cookie: desk })).statusCode).toBe(403);
    clock.advance(15 * MINUTE + 1000);
  });
});

describe('wrong credentials', () => {
  it('answers an unknown NC number and a wrong date of birth identically (status, body, headers)', async () => {
    const address = nextAddress();
    const unknown = await login(creds(patient, { ncNumber: nextNcNumber() }), address);
    const wrongDate = await login(creds(patient, { dateOfBirth: '1990-07-22' }), address);
    for (const res of [unknown, wrongDate]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual(FAILED);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(unknown.body).toBe(wrongDate.body);
    const keys = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => k !== 'date')
        .sort();
    expect(keys(unknown.headers)).toEqual(keys(wrongDate.headers));
  });

  it('refuses a patient without a recorded date of birth whatever date is sent', async () => {
    const undated = await insertPatient(t.db, { dateOfBirth: null });
    const res = await login(creds(undated, { dateOfBirth: '1985-04-12' }), nextAddress());
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(FAILED);
  });

  it('records each failure with its reason, for auditors only', async () => {
    const address = nextAddress();
    await login(creds(patient, { dateOfBirth: '2001-01-01' }), address);
    const event = await queryOne(
      t.db,
      sql`SELECT event_type, subject, metadata->>'reason' AS reason, ip_address FROM security_events ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({ event_type: 'LOGIN_FAILURE', subject: patient.ncNumber, reason: 'wrong_date_of_birth', ip_address: address });
  });
});

describe('throttle', () => {
  it('locks an NC number for 15 minutes after 5 failures, even with the right date of birth', async () => {
    const p = await activePatient();
    const address = nextAddress();
    for (let i = 0; i < 5; i++) {
      expect((await login(creds(p, { dateOfBirth: '2000-01-01' }), address)).statusCode).toBe(401);
    }
    const locked = await login(creds(p), address);
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual(LOCKED);
    expect(locked.headers['retry-after']).toBe('900');
    expect(locked.headers['set-cookie']).toBeUndefined();
    // From another address too: the lock is on the number.
    expect((await login(creds(p), nextAddress())).statusCode).toBe(429);
    const event = await queryOne(
      t.db,
      sql`SELECT subject, metadata FROM security_events WHERE event_type = 'LOGIN_LOCKED' ORDER BY id DESC LIMIT 1`,
    );
    expect(event).toEqual({ subject: p.ncNumber, metadata: { kind: 'patient', reason: 'account' } });
    // Other numbers are not affected.
    expect((await login(creds(patient), nextAddress())).statusCode).toBe(200);

    clock.advance(15 * MINUTE + 1000);
    expect((await login(creds(p), address)).statusCode).toBe(200);
  });

  it('locks an unknown NC number the same way, so the answer reveals nothing', async () => {
    const known = await insertPatient(t.db);
    const unknown = nextNcNumber();
    const address = nextAddress();
    for (let i = 0; i < 5; i++) {
      await login(creds(known, { dateOfBirth: '2000-01-01' }), address);
      await login(creds(known, { ncNumber: unknown, dateOfBirth: '2000-01-01' }), address);
    }
    const a = await login(creds(known), address);
    const b = await login(creds(known, { ncNumber: unknown }), address);
    expect([a.statusCode, b.statusCode]).toEqual([429, 429]);
    expect(a.body).toBe(b.body);
    clock.advance(15 * MINUTE + 1000);
  });

  it('counts a parallel burst exactly: 5 failures, then 429s', async () => {
    const p = await insertPatient(t.db);
    const address = nextAddress();
    const burst = await Promise.all(Array.from({ length: 12 }, () => login(creds(p, { dateOfBirth: '2000-01-01' }), address)));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
    clock.advance(15 * MINUTE + 1000);
  });

  it('refuses the 101st attempt from one address within 15 minutes, whatever the number', async () => {
    const address = nextAddress();
    // 99 earlier attempts from this address, as the service records them (a subject marks an attempt).
    await t.db.execute(sql`
      INSERT INTO security_events (event_type, severity, description, ip_address, subject, timestamp)
      SELECT 'LOGIN_FAILURE', 'medium', 'Sign-in failed', ${address}, lpad(g::text, 11, '9'), ${clock.now().toISOString()}::timestamptz
      FROM generate_series(1, 99) g`);
    expect((await login(creds(patient), address)).statusCode).toBe(200); // 100
    const refused = await login(creds(patient), address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      message: 'Too many sign-in attempts from this network. Try again in 15 minutes.',
      code: 'NETWORK_THROTTLED',
    });
    expect((await login(creds(patient), nextAddress())).statusCode).toBe(200);
    clock.advance(15 * MINUTE + 1000);
    expect((await login(creds(patient), address)).statusCode).toBe(200);
  });
});

describe('bad input', () => {
  const valid = () => creds(patient);
  it.each([
    ['a 10-digit NC number', { ncNumber: '1234567890' }, 'ncNumber', 'validation:ncNumberLength'],
    ['a 12-digit NC number', { ncNumber: '123456789012' }, 'ncNumber', 'validation:ncNumberLength'],
    ['letters in the NC number', { ncNumber: '12345abc901' }, 'ncNumber', 'validation:ncNumberDigits'],
    ['an empty NC number', { ncNumber: '' }, 'ncNumber', 'validation:ncNumberLength'],
    ['a number instead of a string', { ncNumber: 12345678901 }, 'ncNumber', 'validation:ncNumberLength'],
    ['an impossible date', { dateOfBirth: '1990-02-30' }, 'dateOfBirth', 'validation:dateInvalid'],
    ['another date format', { dateOfBirth: '21/07/1990' }, 'dateOfBirth', 'validation:dateInvalid'],
    ['an empty date', { dateOfBirth: '' }, 'dateOfBirth', 'validation:dateInvalid'],
    ['a missing date', { dateOfBirth: undefined }, 'dateOfBirth', 'validation:dateInvalid'],
    ['a huge NC number', { ncNumber: '1'.repeat(90_000) }, 'ncNumber', 'validation:ncNumberLength'],
    ['a huge date', { dateOfBirth: 'x'.repeat(90_000) }, 'dateOfBirth', 'validation:dateInvalid'],
    ['a missing PIN', { pin: undefined }, 'pin', 'validation:pinFormat'],
    ['a 5-digit PIN', { pin: '12345' }, 'pin', 'validation:pinFormat'],
    ['a 7-digit PIN', { pin: '1234567' }, 'pin', 'validation:pinFormat'],
    ['letters in the PIN', { pin: '12a456' }, 'pin', 'validation:pinFormat'],
    ['a PIN as a number', { pin: 123456 }, 'pin', 'validation:pinFormat'],
  ])('answers 400 for %s', async (_name, change, path, message) => {
    const res = await login({ ...valid(), ...change }, nextAddress());
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', issues: expect.arrayContaining([{ path, message }]) });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('answers 400 for extra fields, a non-object body and no body', async () => {
    const extra = await login({ ...valid(), patientId: 1 }, nextAddress());
    expect(extra.statusCode).toBe(400);
    expect((await login([valid()], nextAddress())).statusCode).toBe(400);
    const empty = await t.app.inject({ method: 'POST', url: '/api/auth/patient-login', headers: { 'content-type': 'application/json' } });
    expect(empty.statusCode).toBe(400);
  });

  it('answers 413 past 100 KB and 415 for a form post', async () => {
    expect((await login({ ...valid(), ncNumber: '1'.repeat(110_000) })).statusCode).toBe(413);
    const form = await t.app.inject({
      method: 'POST',
      url: '/api/auth/patient-login',
      payload: `ncNumber=${patient.ncNumber}&dateOfBirth=${patient.dateOfBirth}&pin=${PATIENT_PIN}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
  });

  it('records no attempt for invalid input', async () => {
    const before = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM security_events`);
    await login({ ncNumber: 'abc', dateOfBirth: 'x' }, nextAddress());
    const after = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM security_events`);
    expect(after!.n).toBe(before!.n);
  });
});
