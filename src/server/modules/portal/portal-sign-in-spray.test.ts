// Issue 21 item 3 (decision 032): failed patient sign-ins are limited per address across NC numbers and for every
// address together per minute, and a spray (many numbers, a few guesses each, from rotating addresses) raises a
// SIGN_IN_SPRAY_ALERT in the privacy review. The per-number lockout (decision 004) alone let 4 guesses on each of 24
// numbers from rotating addresses through, with no alert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { VolumeAlert } from '../../../contracts/privacy-review';
import { loadConfig } from '../../config';
import { testClock } from '../../test/clock';
import { createPatient } from '../../test/patient-fixtures';
import { nextNcNumber, PATIENT_PIN, signInPatient } from '../../test/portal-fixtures';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

const clock = testClock(new Date('2026-11-25T09:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    now: clock.now,
    portalSignIn: { failuresPerIp: 6, failuresPerMinute: 15 },
    alerts: { ...loadConfig({}).alerts, sprayAccounts: 5, sprayMinutes: 10 },
  });
});
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
const newIp = (): string => `10.55.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
/** Past every window of an earlier test (15 minutes per address, 10 for the spray alert). */
const nextWindow = (): void => clock.advance(16 * 60_000);

const login = (ip: string, ncNumber: string, pin: string, dateOfBirth = '1980-01-01') =>
  t.app.inject({ method: 'POST', url: '/api/auth/patient-login', remoteAddress: ip, payload: { ncNumber, dateOfBirth, pin } });

async function activated() {
  const p = await createPatient(t.db);
  const patient = { id: p.id, ncNumber: p.idNumber, dateOfBirth: p.dateOfBirth };
  await signInPatient(t, patient, newIp());
  return patient;
}

async function sprayAlerts(): Promise<VolumeAlert[]> {
  // A fresh auditor's session each time: the test clock moves past a staff session's idle time between windows.
  const { cookie } = await signInAs(t, 6);
  const res = await t.app.inject({ method: 'GET', url: '/api/privacy-reviews/alerts?pageSize=100', headers: { cookie } });
  expect(res.statusCode).toBe(200);
  return (res.json().items as VolumeAlert[]).filter((a) => a.type === 'SIGN_IN_SPRAY_ALERT');
}

describe('failed patient sign-ins across NC numbers (issue 21 item 3)', () => {
  it('are limited per address: past the limit even a right PIN from that address waits; another address is served', async () => {
    nextWindow();
    const p = await activated();
    clock.advance(1000);
    const ip = newIp();
    for (let i = 0; i < 6; i++) expect((await login(ip, nextNcNumber(), '507318')).statusCode).toBe(401);
    const refused = await login(ip, p.ncNumber, PATIENT_PIN, p.dateOfBirth);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('NETWORK_THROTTLED');
    const event = await queryOne<{ metadata: Record<string, unknown> }>(
      t.db,
      sql`SELECT metadata FROM security_events WHERE event_type = 'LOGIN_LOCKED' ORDER BY id DESC LIMIT 1`,
    );
    expect(event!.metadata).toMatchObject({ kind: 'patient', reason: 'portal_address_failures' });
    expect((await login(newIp(), p.ncNumber, PATIENT_PIN, p.dateOfBirth)).statusCode).toBe(200);
  });

  it('are limited for every address together per minute, so rotating addresses do not help', async () => {
    nextWindow();
    const p = await activated();
    clock.advance(1000);
    for (let i = 0; i < 15; i++) expect((await login(newIp(), nextNcNumber(), '507318')).statusCode).toBe(401);
    const busy = await login(newIp(), p.ncNumber, PATIENT_PIN, p.dateOfBirth);
    expect(busy.statusCode).toBe(429);
    expect(busy.json().code).toBe('PORTAL_SIGN_IN_BUSY');
    expect(busy.headers['retry-after']).toBe('60');
    clock.advance(61_000);
    expect((await login(newIp(), p.ncNumber, PATIENT_PIN, p.dateOfBirth)).statusCode).toBe(200);
  });

  it('many numbers with a few guesses each from rotating addresses raise one spray alert for the privacy review', async () => {
    nextWindow();
    const before = (await sprayAlerts()).length;
    const numbers = Array.from({ length: 6 }, () => nextNcNumber());
    // One number guessed many times is the lockout's business, not a spray.
    const single = nextNcNumber();
    for (let i = 0; i < 5; i++) expect((await login(newIp(), single, '507318')).statusCode).toBe(401);
    clock.advance(60_000);
    for (const [i, nc] of numbers.slice(0, 5).entries()) {
      expect((await login(newIp(), nc, '507318')).statusCode).toBe(401);
      expect((await login(newIp(), nc, '620394')).statusCode).toBe(401);
      if (i === 2) clock.advance(60_000);
    }
    expect(await sprayAlerts()).toHaveLength(before);
    clock.advance(60_000);
    expect((await login(newIp(), numbers[5]!, '507318')).statusCode).toBe(401);
    const raised = await sprayAlerts();
    expect(raised).toHaveLength(before + 1);
    expect(raised[0]).toMatchObject({ user: null, severity: 'HIGH', count: 6, threshold: 5, minutes: 10 });
    // One alert per window, however long the spray goes on.
    expect((await login(newIp(), nextNcNumber(), '507318')).statusCode).toBe(401);
    expect(await sprayAlerts()).toHaveLength(before + 1);
  });
});
