// The staff second factor's tables (decision 024): staff_totp, staff_recovery_codes, staff_sign_in_challenges,
// session_reauth and mfa_role_policy. Every change is written with its security event in one transaction.
import { and, asc, eq, gt, isNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { SYSTEM_CLIENT_ROLE_ID } from '../../../contracts/api-clients';
import { REAUTH_FRESH_MINUTES } from '../../../contracts/mfa';
import { hotStatement, slotValues, type Db, type DbOrTx, type Slots } from '../../db/client';
import {
  mfaRolePolicy,
  roles,
  securityEvents,
  sessionReauth,
  staffRecoveryCodes,
  staffSignInChallenges,
  staffTotp,
  users,
  webauthnCredentials,
} from '../../db/schema';
import type { SecurityEventRow } from './auth.repository';
import { endSessionsOfStaffUser } from '../../context/session';

export interface TotpRow {
  secret: string;
  enabledAt: Date | null;
  lastStep: number;
}

export async function readTotp(db: Db, userId: string): Promise<TotpRow | null> {
  const [row] = await db
    .select({ secret: staffTotp.secret, enabledAt: staffTotp.enabledAt, lastStep: staffTotp.lastStep })
    .from(staffTotp)
    .where(eq(staffTotp.userId, userId));
  return row ?? null;
}

/** Starts (or restarts) an enrolment: a new secret, not yet enabled. Does nothing when TOTP is already enabled. */
export async function upsertPendingTotp(db: Db, userId: string, secret: string, now: Date, event: SecurityEventRow): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .insert(staffTotp)
      .values({ userId, secret, createdAt: now })
      .onConflictDoUpdate({ target: staffTotp.userId, set: { secret, createdAt: now, lastStep: 0 }, where: isNull(staffTotp.enabledAt) })
      .returning({ userId: staffTotp.userId });
    if (rows.length === 0) return false;
    await tx.insert(securityEvents).values(event);
    return true;
  });
}

/**
 * Uses a TOTP step: true when it is later than the last one used (then it becomes the last), false for a replay.
 * `enabled` says whether the secret must already be enabled (sign-in, re-authentication) or pending (confirmation).
 */
export async function consumeTotpStep(db: Db, userId: string, step: number, enabled: boolean): Promise<boolean> {
  const rows = await db
    .update(staffTotp)
    .set({ lastStep: step })
    .where(
      and(
        eq(staffTotp.userId, userId),
        lt(staffTotp.lastStep, step),
        enabled ? sql`${staffTotp.enabledAt} IS NOT NULL` : isNull(staffTotp.enabledAt),
      ),
    )
    .returning({ userId: staffTotp.userId });
  return rows.length > 0;
}

/** Enables the pending secret and replaces the recovery codes, with the event. */
export async function enableTotp(db: Db, userId: string, codeHashes: string[], now: Date, event: SecurityEventRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(staffTotp).set({ enabledAt: now }).where(eq(staffTotp.userId, userId));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx.insert(staffRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
    await tx.insert(securityEvents).values(event);
  });
}

/** Removes TOTP and the recovery codes, with the event. */
export async function removeTotp(db: Db, userId: string, event: SecurityEventRow): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(staffTotp).where(eq(staffTotp.userId, userId));
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx.insert(securityEvents).values(event);
  });
}

/** Marks an unused recovery code used; false when there is none with this hash. */
export async function consumeRecoveryCode(db: Db, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(and(eq(staffRecoveryCodes.userId, userId), eq(staffRecoveryCodes.codeHash, codeHash), isNull(staffRecoveryCodes.usedAt)))
    .returning({ id: staffRecoveryCodes.id });
  return rows.length > 0;
}

export async function countRecoveryCodesLeft(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffRecoveryCodes)
    .where(and(eq(staffRecoveryCodes.userId, userId), isNull(staffRecoveryCodes.usedAt)));
  return row?.n ?? 0;
}

export interface ChallengeRow {
  userId: string;
  email: string;
  facility: string | null;
  purpose: string;
}

export async function insertChallenge(
  db: Db,
  row: { tokenHash: string; userId: string; purpose: 'second_factor' | 'enrol'; createdAt: Date; expiresAt: Date },
  event: SecurityEventRow,
): Promise<void> {
  await db.transaction(async (tx) => {
    // One open challenge per user: a new password sign-in replaces the last (and expired ones go with it).
    await tx.delete(staffSignInChallenges).where(eq(staffSignInChallenges.userId, row.userId));
    await tx.insert(staffSignInChallenges).values(row);
    await tx.insert(securityEvents).values(event);
  });
}

/** The live challenge with this token hash, with its user's e-mail (the throttle's subject). */
export async function readChallenge(db: Db, tokenHash: string, now: Date): Promise<ChallengeRow | null> {
  const [row] = await db
    .select({ userId: users.id, email: users.email, facility: users.facility, purpose: staffSignInChallenges.purpose })
    .from(staffSignInChallenges)
    .innerJoin(users, eq(users.id, staffSignInChallenges.userId))
    .where(and(eq(staffSignInChallenges.tokenHash, tokenHash), gt(staffSignInChallenges.expiresAt, now)));
  return row ?? null;
}

/** Ends a challenge; false when it was already used (a parallel request finished first). */
export async function deleteChallenge(db: Db, tokenHash: string): Promise<boolean> {
  const rows = await db
    .delete(staffSignInChallenges)
    .where(eq(staffSignInChallenges.tokenHash, tokenHash))
    .returning({ t: staffSignInChallenges.tokenHash });
  return rows.length > 0;
}

/** Records that this session proved a second factor now. */
export async function recordReauth(db: Db, sid: string, now: Date, event: SecurityEventRow | null): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(sessionReauth)
      .values({ sid, verifiedAt: now })
      .onConflictDoUpdate({ target: sessionReauth.sid, set: { verifiedAt: now } });
    if (event) await tx.insert(securityEvents).values(event);
  });
}

export async function readReauth(db: Db, sid: string): Promise<Date | null> {
  const [row] = await db.select({ verifiedAt: sessionReauth.verifiedAt }).from(sessionReauth).where(eq(sessionReauth.sid, sid));
  return row?.verifiedAt ?? null;
}

/** The role's policy; a role without a row is 'optional'. */
export async function readRolePolicy(db: Db, roleId: number | null): Promise<string> {
  if (roleId === null) return 'optional';
  const [row] = await db.select({ policy: mfaRolePolicy.policy }).from(mfaRolePolicy).where(eq(mfaRolePolicy.roleId, roleId));
  return row?.policy ?? 'optional';
}

export function listRolePolicies(db: Db): Promise<{ roleId: number; name: string; displayName: string; policy: string | null }[]> {
  return (
    db
      .select({ roleId: roles.id, name: roles.name, displayName: roles.displayName, policy: mfaRolePolicy.policy })
      .from(roles)
      .leftJoin(mfaRolePolicy, eq(mfaRolePolicy.roleId, roles.id))
      // System clients never sign in (decision 020): a second-factor policy means nothing for their role.
      .where(ne(roles.id, SYSTEM_CLIENT_ROLE_ID))
      .orderBy(asc(roles.id))
  );
}

/** Sets a role's policy with its event; false for an unknown role. */
export async function upsertRolePolicy(
  db: Db,
  roleId: number,
  policy: string,
  by: string,
  now: Date,
  event: SecurityEventRow,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, roleId));
    if (!role || role.id === SYSTEM_CLIENT_ROLE_ID) return false;
    await tx
      .insert(mfaRolePolicy)
      .values({ roleId, policy, updatedAt: now, updatedBy: by })
      .onConflictDoUpdate({ target: mfaRolePolicy.roleId, set: { policy, updatedAt: now, updatedBy: by } });
    await tx.insert(securityEvents).values(event);
    return true;
  });
}

/** What sign-in needs to decide the second step: the role's policy, whether TOTP is enabled, how many passkeys. */
export async function readSecondFactorState(db: Db, userId: string): Promise<{ policy: string; totpEnabled: boolean; passkeys: number }> {
  const [row] = await db
    .select({
      policy: mfaRolePolicy.policy,
      enabledAt: staffTotp.enabledAt,
      passkeys: sql<number>`(SELECT count(*)::int FROM ${webauthnCredentials} WHERE ${webauthnCredentials.userId} = ${users.id})`,
    })
    .from(users)
    .leftJoin(mfaRolePolicy, eq(mfaRolePolicy.roleId, users.roleId))
    .leftJoin(staffTotp, eq(staffTotp.userId, users.id))
    .where(eq(users.id, userId));
  return { policy: row?.policy ?? 'optional', totpEnabled: Boolean(row?.enabledAt), passkeys: row?.passkeys ?? 0 };
}

/**
 * An administrator's reset (a lost phone): removes the user's authenticator app, recovery codes and any pending
 * sign-in step, with the event, in the caller's transaction. Answers when it had been enabled; 'missing' for an
 * unknown user, 'not_enrolled' when there was nothing to reset.
 */
export async function resetTotpOf(tx: DbOrTx, userId: string, event: SecurityEventRow): Promise<Date | 'missing' | 'not_enrolled'> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) return 'missing';
  const removed = await tx.delete(staffTotp).where(eq(staffTotp.userId, userId)).returning({ enabledAt: staffTotp.enabledAt });
  const enabledAt = removed[0]?.enabledAt ?? null;
  if (!enabledAt) return 'not_enrolled'; // a pending (never confirmed) enrolment goes too: it was never a factor
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  await tx.delete(staffSignInChallenges).where(eq(staffSignInChallenges.userId, userId));
  // Whoever holds the lost phone may be signed in with it: every open session of the user ends with the reset.
  await endSessionsOfStaffUser(tx, userId);
  await tx.insert(securityEvents).values(event);
  return enabledAt;
}

/** Replaces the user's recovery codes (issue 21 item 13: also for a passkey), with the event. */
export async function replaceRecoveryCodes(
  db: Db,
  userId: string,
  codeHashes: string[],
  now: Date,
  event: SecurityEventRow,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
    await tx.insert(staffRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
    await tx.insert(securityEvents).values(event);
  });
}

export interface SecondFactorUserRow {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  roleId: number | null;
  totpEnabledAt: Date | null;
  passkeys: number;
  firstPasskeyAt: Date | null;
}

/** Active staff with any second factor (an authenticator app or a passkey), for an administrator's reset. */
export async function listSecondFactorUsers(db: Db): Promise<SecondFactorUserRow[]> {
  const passkeys = sql<number>`(SELECT count(*)::int FROM ${webauthnCredentials} w WHERE w.user_id = ${users.id})`;
  const rows = await db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      roleId: users.roleId,
      totpEnabledAt: staffTotp.enabledAt,
      passkeys,
      firstPasskeyAt: sql<string | null>`(SELECT min(w.created_at) FROM ${webauthnCredentials} w WHERE w.user_id = ${users.id})`,
    })
    .from(users)
    .leftJoin(staffTotp, eq(staffTotp.userId, users.id))
    .where(
      and(
        eq(users.isActive, true),
        eq(users.accountStatus, 'active'),
        sql`(${staffTotp.enabledAt} IS NOT NULL OR EXISTS (SELECT 1 FROM ${webauthnCredentials} w WHERE w.user_id = ${users.id}))`,
      ),
    )
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id));
  return rows.map((r) => ({ ...r, firstPasskeyAt: r.firstPasskeyAt ? new Date(r.firstPasskeyAt) : null }));
}

/**
 * An administrator's reset of every second factor (issue 21 item 13: a lost passkey too): removes the authenticator
 * app (enabled or pending), every passkey, the recovery codes, pending sign-in steps and every session of the user,
 * with the event, in the caller's transaction. Answers what there was; 'missing' for an unknown user, 'none' when the
 * user had no second factor.
 */
export async function resetSecondFactorsOf(
  tx: DbOrTx,
  userId: string,
  event: SecurityEventRow,
): Promise<{ totpEnabledAt: Date | null; passkeys: number } | 'missing' | 'none'> {
  const [user] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!user) return 'missing';
  const totp = await tx.delete(staffTotp).where(eq(staffTotp.userId, userId)).returning({ enabledAt: staffTotp.enabledAt });
  const removed = await tx
    .delete(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .returning({ id: webauthnCredentials.id });
  const totpEnabledAt = totp[0]?.enabledAt ?? null;
  if (!totpEnabledAt && removed.length === 0) return 'none';
  await tx.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  await tx.delete(staffSignInChallenges).where(eq(staffSignInChallenges.userId, userId));
  await endSessionsOfStaffUser(tx, userId);
  await tx.insert(securityEvents).values(event);
  return { totpEnabledAt, passkeys: removed.length };
}

/** The per-request values of the re-authentication rule (reauthRuleSlotted). */
export interface ReauthSlots {
  reauthUserId: string;
  /** The session the proof must have been made in (none: no proof counts). */
  reauthSid: string | null;
  /** A proof made at or after this instant is fresh (REAUTH_FRESH_MINUTES before now). */
  reauthSince: string;
  /** Record-access grants after this instant count towards the hourly volume (an hour before now). */
  reauthVolumeSince: string;
  /** More grants than this in the hour need a proof (ALERT_GRANTS_PER_HOUR); null: the volume is not counted. */
  reauthPerHour: number | null;
  /** Break-the-glass: a user with a second factor needs a fresh proof of it. */
  reauthBreakGlass: boolean;
}

export const reauthSlotValues = (
  userId: string,
  sid: string | null,
  now: Date,
  need: { breakGlass: boolean; grantsPerHour: number | null },
): ReauthSlots => ({
  reauthUserId: userId,
  reauthSid: sid,
  reauthSince: new Date(now.getTime() - REAUTH_FRESH_MINUTES * 60_000).toISOString(),
  reauthVolumeSince: new Date(now.getTime() - 60 * 60_000).toISOString(),
  reauthPerHour: need.grantsPerHour,
  reauthBreakGlass: need.breakGlass,
});

/**
 * The re-authentication rule (issue 12 item 3, issue 21 items 8 and 20; decisions 024 and 035) as one SQL row:
 * break-the-glass by a user with a second factor, and any record-access grant past the hourly volume, needs a proof
 * made in this session within REAUTH_FRESH_MINUTES (the second factor where the user has one, else the password).
 * Columns: over_volume, has_second_factor, ok (no proof needed, or a fresh one made). The grant's own statement runs
 * it (grant-audited.repository.ts), so the count, the check and the grant see one snapshot.
 */
export function reauthRuleSlotted(slot: Slots<ReauthSlots>): SQL {
  return sql`SELECT v.over_volume, f.has_second_factor,
                    ((NOT ${slot.reauthBreakGlass}::boolean OR NOT f.has_second_factor) AND NOT v.over_volume) OR f.fresh AS ok
               FROM (SELECT coalesce(count(*) > ${slot.reauthPerHour}::int, false) AS over_volume FROM access_grants g
                      WHERE ${slot.reauthPerHour}::int IS NOT NULL AND g.user_id = ${slot.reauthUserId}::text
                        AND g.granted_at > ${slot.reauthVolumeSince}::timestamptz) AS v,
                    (SELECT EXISTS (SELECT 1 FROM staff_totp t WHERE t.user_id = ${slot.reauthUserId}::text AND t.enabled_at IS NOT NULL)
                              OR EXISTS (SELECT 1 FROM webauthn_credentials w WHERE w.user_id = ${slot.reauthUserId}::text) AS has_second_factor,
                            coalesce((SELECT r.verified_at >= ${slot.reauthSince}::timestamptz FROM session_reauth r
                                       WHERE r.sid = ${slot.reauthSid}::text), false) AS fresh) AS f`;
}

const reauthRule = hotStatement<ReauthSlots, { over_volume: boolean; has_second_factor: boolean; ok: boolean }>('nhr_reauth_rule', (slot) =>
  reauthRuleSlotted(slot),
);

/** The re-authentication rule in a statement of its own. */
export async function readReauthRule(
  db: DbOrTx,
  values: ReauthSlots,
): Promise<{ ok: boolean; hasSecondFactor: boolean; overVolume: boolean }> {
  const [row] = await reauthRule(db, slotValues(values));
  return { ok: row?.ok ?? false, hasSecondFactor: row?.has_second_factor ?? false, overVolume: row?.over_volume ?? false };
}
