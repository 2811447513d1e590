// Offline clinic mode for tests (issue 27, decision 061): a staff member with an authenticator app enrolled (which
// proves the second factor in that session), their offline device switched on through POST /api/devices, and the
// device's routes as the client calls them.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { Secret, TOTP } from 'otpauth';
import type { Permission } from '../../contracts/constants';
import type { OfflineOpen, OfflineWrite } from '../../contracts/offline';
import { createStaffUser, signIn, type StaffUser } from './staff';
import type { TestApp } from './test-app';

export interface OfflineUser {
  user: StaffUser;
  cookie: string;
  /** The device switched on for this user (absent until enabled). */
  deviceId: string;
}

/** Gives a user a permission beyond their role's (a user_permissions exception, as an administrator would). */
export async function grantPermission(t: TestApp, userId: string, permission: Permission): Promise<void> {
  await t.db.execute(sql`INSERT INTO user_permissions (user_id, permission_id, is_granted)
                         SELECT ${userId}, id, true FROM permissions WHERE name = ${permission}`);
}

/** Enrols an authenticator app for the signed-in user (the enrolment proves the second factor in this session); its secret. */
export async function enrolTotp(t: TestApp, cookie: string, now: Date): Promise<string> {
  const started = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/totp/enrol', headers: { cookie } });
  const secret = started.json<{ secret: string }>().secret;
  const code = totpCode(secret, now);
  const confirmed = await t.app.inject({ method: 'POST', url: '/api/auth/mfa/totp/confirm', headers: { cookie }, payload: { code } });
  if (confirmed.statusCode !== 200) throw new Error(`totp not confirmed: ${confirmed.statusCode} ${confirmed.body}`);
  return secret;
}

/** The authenticator app's code for `secret` at `now`. */
export const totpCode = (secret: string, now: Date): string =>
  new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) }).generate({ timestamp: now.getTime() });

/** A new staff member of this role (a doctor by default), signed in, with a second factor and an offline device. */
export async function offlineUser(
  t: TestApp,
  options: { roleId?: number; facility?: string; permissions?: Permission[]; label?: string } = {},
): Promise<OfflineUser> {
  const user = await createStaffUser(t.db, { roleId: options.roleId ?? 3, ...(options.facility ? { facility: options.facility } : {}) });
  for (const p of options.permissions ?? []) await grantPermission(t, user.id, p);
  const cookie = await signIn(t.app, user.email, user.password);
  await enrolTotp(t, cookie, t.config.now());
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/devices',
    headers: { cookie },
    payload: { label: options.label ?? 'Clinic laptop' },
  });
  if (res.statusCode !== 201) throw new Error(`device not enabled: ${res.statusCode} ${res.body}`);
  return { user, cookie, deviceId: res.json<{ device: { id: string } }>().device.id };
}

/** The device routes as `who` calls them (another user's cookie with this device id proves the refusals). */
export function deviceApi(t: TestApp, cookie: string, deviceId: string) {
  const call = (options: InjectOptions) => t.app.inject({ ...options, headers: { cookie, ...(options.headers ?? {}) } });
  return {
    contact: () => call({ method: 'POST', url: `/api/devices/${deviceId}/contact` }),
    offlineSet: () => call({ method: 'GET', url: `/api/devices/${deviceId}/offline-set` }),
    sync: (writes: OfflineWrite[], accessLog: OfflineOpen[] = []) =>
      call({ method: 'POST', url: `/api/devices/${deviceId}/sync`, payload: { writes, accessLog } }),
    discard: (payload: Record<string, unknown>) => call({ method: 'POST', url: `/api/devices/${deviceId}/discard`, payload }),
  };
}

/** An entry as the client queues it. */
export const entryOf = (
  kind: string,
  patient: { id: number } | { clientId: string },
  body: Record<string, unknown>,
  deviceTime: Date,
  seenCursor: string | null = null,
): OfflineWrite =>
  ({ type: 'entry', clientId: randomUUID(), deviceTime: deviceTime.toISOString(), kind, patient, seenCursor, body }) as OfflineWrite;
