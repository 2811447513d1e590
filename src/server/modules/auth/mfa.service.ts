// The staff second factor (issue 12 items 2-4, decision 024): TOTP enrolment with recovery codes, the second
// sign-in step, re-authentication before break-the-glass, and the per-role policy. Every wrong code is a
// LOGIN_FAILURE of the account's e-mail, so 5 wrong codes lock the account as 5 wrong passwords do (decision 004).
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentUser } from '../../../contracts/auth';
import {
  MFA_POLICIES,
  REAUTH_FRESH_MINUTES,
  RECOVERY_CODE_COUNT,
  type LoginPending,
  type SecondFactorMethod,
  type MfaPolicy,
  type MfaRolePolicy,
  type MfaStatus,
  type TotpConfirmed,
  type TotpEnrolment,
  type TotpUser,
} from '../../../contracts/mfa';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { RequestMeta, StaffActor } from '../../context/actor';
import { startSession } from '../../context/session';
import type { Db } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { insertSecurityEvent, type SecurityEventRow } from './auth.repository';
import { verifyPassword } from '../../security/password';
import { loginCandidate } from '../users/users.service';
import { completeStaffLogin, type VerifiedLogin } from './auth.service';
import {
  consumeRecoveryCode,
  consumeTotpStep,
  countRecoveryCodesLeft,
  deleteChallenge,
  enableTotp,
  insertChallenge,
  listRolePolicies,
  listSecondFactorUsers,
  readChallenge,
  readReauth,
  readRolePolicy,
  readSecondFactorState,
  readTotp,
  recordReauth,
  removeTotp,
  replaceRecoveryCodes,
  resetSecondFactorsOf,
  resetTotpOf,
  upsertPendingTotp,
  upsertRolePolicy,
  readReauthRule,
  reauthSlotValues,
} from './mfa.repository';
import { recordSignInFailure, refuseIfThrottled, serializeSignIn } from './sign-in-throttle.service';
import { secretBoxFor } from '../../security/secret-box';
import { newRecoveryCodes, newTotpSecret, recoveryCodeHash, totpProvisioning, totpStep } from './totp';

/** The re-authentication rule's values, for a statement that runs the rule itself (the record-access grant). */
export { reauthSlotValues };

export const CHALLENGE_COOKIE = 'nhr_mfa';
const MINUTE = 60_000;
/** How long the step between the password and the second factor (or the forced enrolment) stays open. */
const CHALLENGE_MS = { second_factor: 5 * MINUTE, enrol: 15 * MINUTE } as const;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const sha256 = (token: string): string => createHash('sha256').update(token).digest('hex');
const asPolicy = (p: string): MfaPolicy => ((MFA_POLICIES as readonly string[]).includes(p) ? (p as MfaPolicy) : 'optional');

export const signInExpiredError = (): AppError => signInExpired();
export const invalidSecondFactor = (): AppError => new AppError('INVALID_SECOND_FACTOR', 'The code is not valid');
const signInExpired = (): AppError => new AppError('SIGN_IN_EXPIRED', 'Sign in again with your password');
export const reauthRequired = (method: 'second_factor' | 'password' = 'second_factor'): AppError =>
  new AppError(
    'REAUTH_REQUIRED',
    method === 'password'
      ? `Confirm your password (within the last ${REAUTH_FRESH_MINUTES} minutes) before more record access`
      : `Confirm your second factor (within the last ${REAUTH_FRESH_MINUTES} minutes) before emergency access`,
    { details: { method } },
  );

/** Who a second-factor check is for: the throttle's subject is the lower-cased e-mail. */
export interface CodeOwner {
  userId: string;
  email: string;
  facility: string | null;
}

const event = (
  owner: Pick<CodeOwner, 'userId' | 'facility'>,
  meta: RequestMeta,
  now: Date,
  e: Pick<SecurityEventRow, 'eventType' | 'severity' | 'description' | 'metadata'>,
): SecurityEventRow => ({
  userId: owner.userId,
  facility: owner.facility,
  ipAddress: meta.ip,
  userAgent: meta.userAgent,
  timestamp: now,
  ...e,
});

/**
 * Checks a TOTP or recovery code of an enrolled user under the sign-in throttle: 429 when locked, 401
 * INVALID_SECOND_FACTOR (a LOGIN_FAILURE) when wrong or replayed. Returns which kind of code it was.
 */
async function checkCode(
  { db, config }: AppDeps,
  owner: CodeOwner,
  code: string,
  meta: RequestMeta,
  purpose: string,
): Promise<'totp' | 'recovery'> {
  const subject = owner.email.toLowerCase();
  return serializeSignIn(subject, meta, async () => {
    const now = config.now();
    const attempt = { subject, meta, now };
    await refuseIfThrottled(db, attempt, { factor: 'second', purpose });
    const totp = await readTotp(db, owner.userId);
    const step = totp?.enabledAt ? totpStep(secretBoxFor(config.mfaSecretKey).open(totp.secret), code, now) : null;
    if (step !== null && (await consumeTotpStep(db, owner.userId, step, true))) return 'totp';
    // Recovery codes stand for any second factor, a passkey included (issue 21 item 13).
    const enrolled = Boolean(totp?.enabledAt) || (await readSecondFactorState(db, owner.userId)).passkeys > 0;
    if (enrolled && step === null && code.length > 6 && (await consumeRecoveryCode(db, owner.userId, recoveryCodeHash(code), now))) {
      return 'recovery';
    }
    await recordSignInFailure(db, attempt, { factor: 'second', purpose, reason: enrolled ? 'wrong_code' : 'not_enrolled' }, owner);
    throw invalidSecondFactor();
  });
}

/** After a right password: none, a second factor (with the methods it accepts), or a forced enrolment (the role requires it). */
export async function secondFactorStep(
  db: Db,
  userId: string,
): Promise<{ step: 'none' | 'verify' | 'enrol'; methods: SecondFactorMethod[] }> {
  const state = await readSecondFactorState(db, userId);
  const methods: SecondFactorMethod[] = [];
  if (state.totpEnabled) methods.push('totp');
  if (state.passkeys > 0) methods.push('passkey');
  if (methods.length > 0) return { step: 'verify', methods };
  return { step: state.policy === 'required' ? 'enrol' : 'none', methods };
}

/** Opens the challenge (nhr_mfa cookie) between the password and the second factor; no session yet. */
export async function beginSecondFactor(
  { db, config }: AppDeps,
  reply: FastifyReply,
  login: VerifiedLogin,
  step: 'verify' | 'enrol',
  meta: RequestMeta,
  methods: SecondFactorMethod[] = ['totp'],
): Promise<LoginPending> {
  const now = config.now();
  const token = randomBytes(32).toString('base64url');
  const purpose = step === 'verify' ? 'second_factor' : 'enrol';
  await insertChallenge(
    db,
    { tokenHash: sha256(token), userId: login.userId, purpose, createdAt: now, expiresAt: new Date(now.getTime() + CHALLENGE_MS[purpose]) },
    event(login, meta, now, {
      eventType: step === 'verify' ? 'MFA_CHALLENGE' : 'MFA_ENROL_REQUIRED',
      severity: 'low',
      description:
        step === 'verify'
          ? 'Password accepted; second factor asked'
          : 'Password accepted; the role requires a second factor: enrolment asked',
      metadata: null,
    }),
  );
  reply.setCookie(CHALLENGE_COOKIE, token, { httpOnly: true, sameSite: 'strict', secure: config.production, path: '/api/auth' });
  return step === 'verify'
    ? { message: 'Confirm your second factor', secondFactor: 'verify', methods }
    : { message: 'Your role requires a second factor: set it up to finish signing in', secondFactor: 'enrol' };
}

export async function challengeOf(
  deps: AppDeps,
  request: FastifyRequest,
  purpose: 'second_factor' | 'enrol',
): Promise<(CodeOwner & { tokenHash: string }) | null> {
  const token = request.cookies[CHALLENGE_COOKIE];
  if (!token || !TOKEN_PATTERN.test(token)) return null;
  const tokenHash = sha256(token);
  const row = await readChallenge(deps.db, tokenHash, deps.config.now());
  if (!row || row.purpose !== purpose) return null;
  return { userId: row.userId, email: row.email, facility: row.facility, tokenHash };
}

/** Ends the challenge and opens the full session, fresh for break-the-glass. */
export async function finishSignIn(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  owner: CodeOwner & { tokenHash: string },
  method: 'totp' | 'passkey' = 'totp',
): Promise<CurrentUser> {
  // Single use: of two parallel requests with valid codes, only the one that ends the challenge opens a session.
  if (!(await deleteChallenge(deps.db, owner.tokenHash))) throw signInExpired();
  reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/auth' });
  return openStaffSession(deps, request, reply, owner, method);
}

/** Opens the staff session of a user who proved a second factor (code, or a passkey with user verification). */
export async function openStaffSession(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  owner: CodeOwner,
  method: 'totp' | 'passkey',
): Promise<CurrentUser> {
  const sid = await startSession(deps, request, reply, { kind: 'staff', userId: owner.userId });
  await recordReauth(deps.db, sid, deps.config.now(), null);
  const login: VerifiedLogin = { userId: owner.userId, facility: owner.facility, subject: owner.email.toLowerCase() };
  return completeStaffLogin(deps, login, sid, request.meta, method);
}

/** POST /api/auth/login/second-factor: the code after the password; opens the session. */
export async function verifyLoginSecondFactor(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
): Promise<CurrentUser> {
  const owner = await challengeOf(deps, request, 'second_factor');
  if (!owner) throw signInExpired();
  const kind = await checkCode(deps, owner, code, request.meta, 'sign_in');
  if (kind === 'recovery') await recordRecoveryUse(deps, owner, request.meta);
  return finishSignIn(deps, request, reply, owner);
}

async function recordRecoveryUse({ db, config }: AppDeps, owner: CodeOwner, meta: RequestMeta): Promise<void> {
  const left = await countRecoveryCodesLeft(db, owner.userId);
  await insertSecurityEvent(
    db,
    event(owner, meta, config.now(), {
      eventType: 'MFA_RECOVERY_CODE_USED',
      severity: 'medium',
      description: 'Recovery code used',
      metadata: { left },
    }),
  );
}

/** Who is enrolling: the signed-in staff user, or the user of an enrolment challenge (role requires it). */
async function enrollingUser(deps: AppDeps, request: FastifyRequest): Promise<(CodeOwner & { tokenHash: string | null }) | null> {
  const actor = request.actor;
  if (actor?.kind === 'staff') return { userId: actor.userId, email: actor.email, facility: actor.facility, tokenHash: null };
  if (actor) return null;
  return challengeOf(deps, request, 'enrol');
}

/** POST /api/auth/mfa/totp/enrol: a new secret, shown once as text and QR code; not active until confirmed. */
export async function startTotpEnrolment(deps: AppDeps, request: FastifyRequest): Promise<TotpEnrolment> {
  const owner = await enrollingUser(deps, request);
  if (!owner) throw signInExpired();
  const secret = newTotpSecret();
  const now = deps.config.now();
  const started = await upsertPendingTotp(
    deps.db,
    owner.userId,
    secretBoxFor(deps.config.mfaSecretKey).seal(secret),
    now,
    event(owner, request.meta, now, {
      eventType: 'MFA_ENROL_STARTED',
      severity: 'low',
      description: 'Authenticator enrolment started',
      metadata: null,
    }),
  );
  if (!started) throw new AppError('SECOND_FACTOR_ALREADY_ENROLLED', 'An authenticator is already set up');
  return { secret, ...(await totpProvisioning(secret, owner.email)) };
}

/**
 * POST /api/auth/mfa/totp/confirm: the first code from the new authenticator enables it and returns the recovery
 * codes (shown once, stored hashed). Under an enrolment challenge it also opens the session.
 */
export async function confirmTotpEnrolment(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  code: string,
): Promise<TotpConfirmed> {
  const owner = await enrollingUser(deps, request);
  if (!owner) throw signInExpired();
  const { db, config } = deps;
  const subject = owner.email.toLowerCase();
  await serializeSignIn(subject, request.meta, async () => {
    const now = config.now();
    const attempt = { subject, meta: request.meta, now };
    await refuseIfThrottled(db, attempt, { factor: 'second', purpose: 'enrol' });
    const totp = await readTotp(db, owner.userId);
    if (totp?.enabledAt) throw new AppError('SECOND_FACTOR_ALREADY_ENROLLED', 'An authenticator is already set up');
    if (!totp) throw new AppError('SECOND_FACTOR_NOT_ENROLLED', 'Start the authenticator set-up first');
    const step = totpStep(secretBoxFor(config.mfaSecretKey).open(totp.secret), code, now);
    if (step === null || !(await consumeTotpStep(db, owner.userId, step, false))) {
      await recordSignInFailure(db, attempt, { factor: 'second', purpose: 'enrol', reason: 'wrong_code' }, owner);
      throw invalidSecondFactor();
    }
  });
  const recoveryCodes = newRecoveryCodes(RECOVERY_CODE_COUNT);
  const now = config.now();
  await enableTotp(
    db,
    owner.userId,
    recoveryCodes.map(recoveryCodeHash),
    now,
    event(owner, request.meta, now, {
      eventType: 'MFA_ENABLED',
      severity: 'medium',
      description: 'Authenticator enabled; recovery codes issued',
      metadata: { recoveryCodes: RECOVERY_CODE_COUNT },
    }),
  );
  if (owner.tokenHash) {
    const user = await finishSignIn(deps, request, reply, { ...owner, tokenHash: owner.tokenHash });
    return { message: 'Authenticator enabled', recoveryCodes, user };
  }
  if (request.meta.sessionHash) await recordReauth(db, request.meta.sessionHash, now, null);
  return { message: 'Authenticator enabled', recoveryCodes };
}

/** POST /api/auth/mfa/totp/disable: with a valid code, and only where the role's policy is 'optional'. */
export async function disableTotp(deps: AppDeps, actor: StaffActor, meta: RequestMeta, code: string): Promise<void> {
  const policy = asPolicy(await readRolePolicy(deps.db, actor.roleId));
  if (policy !== 'optional') throw new AppError('SECOND_FACTOR_REQUIRED_BY_ROLE', 'Your role requires a second factor');
  const totp = await readTotp(deps.db, actor.userId);
  if (!totp?.enabledAt) throw new AppError('SECOND_FACTOR_NOT_ENROLLED', 'No authenticator is set up');
  await checkCode(deps, actor, code, meta, 'disable');
  await removeTotp(
    deps.db,
    actor.userId,
    event(actor, meta, deps.config.now(), {
      eventType: 'MFA_DISABLED',
      severity: 'medium',
      description: 'Authenticator removed',
      metadata: null,
    }),
  );
}

/** POST /api/auth/reauth: proves the second factor again in this session (for break-the-glass). */
export async function reauthenticate(deps: AppDeps, actor: StaffActor, meta: RequestMeta, code: string): Promise<Date> {
  const state = await readSecondFactorState(deps.db, actor.userId);
  // A passkey-only user may use a recovery code here (issue 21 item 13).
  if (!state.totpEnabled && state.passkeys === 0) throw new AppError('SECOND_FACTOR_NOT_ENROLLED', 'No authenticator is set up');
  if (!meta.sessionHash) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  const kind = await checkCode(deps, actor, code, meta, 'reauth');
  if (kind === 'recovery') await recordRecoveryUse(deps, actor, meta);
  const now = deps.config.now();
  await recordReauth(
    deps.db,
    meta.sessionHash,
    now,
    event(actor, meta, now, {
      eventType: 'REAUTH_SUCCESS',
      severity: 'low',
      description: 'Second factor confirmed again',
      metadata: { factor: kind },
    }),
  );
  return now;
}

async function reauthFresh(db: Db, sid: string | null, now: Date): Promise<boolean> {
  if (!sid) return false;
  const at = await readReauth(db, sid);
  return at !== null && now.getTime() - at.getTime() <= REAUTH_FRESH_MINUTES * MINUTE;
}

/**
 * Offline clinic mode (issue 27, decision 061): whether the user has a second factor (TOTP or a passkey) and proved it
 * in this session within REAUTH_FRESH_MINUTES, the freshness break-the-glass asks for.
 */
export async function secondFactorProof(
  db: Db,
  userId: string,
  sid: string | null,
  now: Date,
): Promise<'not-enrolled' | 'stale' | 'fresh'> {
  const state = await readSecondFactorState(db, userId);
  if (!state.totpEnabled && state.passkeys === 0) return 'not-enrolled';
  return (await reauthFresh(db, sid, now)) ? 'fresh' : 'stale';
}

/**
 * Break-the-glass (issue 12 item 3): a user with a second factor must have proven it in this session within
 * REAUTH_FRESH_MINUTES; 403 REAUTH_REQUIRED otherwise. Users without one pass (they have nothing to prove).
 */
export async function assertFreshSecondFactor(db: Db, actor: StaffActor, sid: string | null, now: Date): Promise<void> {
  await assertFreshReauth(db, actor, sid, now, { breakGlass: true, grantsPerHour: null });
}

/**
 * Before break-the-glass and before a record-access grant (issue 21 items 8 and 20, decision 035): break-the-glass by a
 * user with a second factor, and any grant (consent or not) past the hourly volume (`grantsPerHour`; null: not
 * counted), needs a proof made in this session within REAUTH_FRESH_MINUTES: the second factor where the user has one,
 * else the password (POST /api/auth/reauth/password). 403 REAUTH_REQUIRED (`method` says which) otherwise. A system
 * client has no session to prove anything in: the break-the-glass ceiling and the grant limit bound it. The rule is
 * mfa.repository's reauthRuleSlotted; the grant runs it inside its own statement.
 */
export async function assertFreshReauth(
  db: Db,
  actor: StaffActor,
  sid: string | null,
  now: Date,
  need: { breakGlass: boolean; grantsPerHour: number | null },
): Promise<void> {
  if (actor.client) return;
  const rule = await readReauthRule(db, reauthSlotValues(actor.userId, sid, now, need));
  if (!rule.ok) throw reauthRequired(rule.hasSecondFactor ? 'second_factor' : 'password');
}

/**
 * POST /api/auth/reauth/password: a user without a second factor proves it is still them with the password, under
 * the sign-in throttle (a wrong one is a LOGIN_FAILURE of the account, 401 INVALID_CREDENTIALS). A user with a second
 * factor must use it: 403 USE_SECOND_FACTOR.
 */
export async function reauthenticateWithPassword(deps: AppDeps, actor: StaffActor, meta: RequestMeta, password: string): Promise<Date> {
  const { db, config } = deps;
  const sid = meta.sessionHash;
  if (!sid) throw new AppError('UNAUTHENTICATED', 'Authentication required');
  const state = await readSecondFactorState(db, actor.userId);
  if (state.totpEnabled || state.passkeys > 0) {
    throw new AppError('USE_SECOND_FACTOR', 'Confirm with your authenticator app or passkey, not your password');
  }
  const subject = actor.email.toLowerCase();
  await serializeSignIn(subject, meta, async () => {
    const attempt = { subject, meta, now: config.now() };
    await refuseIfThrottled(db, attempt, { purpose: 'reauth' });
    const candidate = await loginCandidate(db, subject);
    if (candidate?.id === actor.userId && (await verifyPassword(candidate.passwordHash, password))) return;
    await recordSignInFailure(db, attempt, { factor: 'password', purpose: 'reauth', reason: 'wrong_password' }, actor);
    throw new AppError('INVALID_CREDENTIALS', 'Invalid credentials');
  });
  const now = config.now();
  await recordReauth(
    db,
    sid,
    now,
    event(actor, meta, now, {
      eventType: 'REAUTH_SUCCESS',
      severity: 'low',
      description: 'Password confirmed again',
      metadata: { factor: 'password' },
    }),
  );
  return now;
}

/** GET /api/auth/mfa. */
export async function mfaStatusOf({ db, config }: AppDeps, actor: StaffActor, sid: string | null): Promise<MfaStatus> {
  const totp = await readTotp(db, actor.userId);
  const enabled = Boolean(totp?.enabledAt);
  const { passkeys } = await readSecondFactorState(db, actor.userId);
  return {
    totpEnabled: enabled,
    enabledAt: totp?.enabledAt ? totp.enabledAt.toISOString() : null,
    recoveryCodesLeft: enabled ? await countRecoveryCodesLeft(db, actor.userId) : 0,
    passkeys,
    policy: asPolicy(await readRolePolicy(db, actor.roleId)),
    reauthFresh: (enabled || passkeys > 0) && (await reauthFresh(db, sid, config.now())),
  };
}

/** GET /api/admin/mfa-policy. */
export async function rolePolicies(db: Db): Promise<MfaRolePolicy[]> {
  const rows = await listRolePolicies(db);
  return rows.map((r) => ({ roleId: r.roleId, name: r.name, displayName: r.displayName, policy: asPolicy(r.policy ?? 'optional') }));
}

/** PUT /api/admin/mfa-policy/{roleId}. */
export async function setRolePolicy(
  { db, config }: AppDeps,
  actor: StaffActor,
  meta: RequestMeta,
  roleId: number,
  policy: MfaPolicy,
): Promise<MfaRolePolicy[]> {
  const now = config.now();
  const ok = await upsertRolePolicy(
    db,
    roleId,
    policy,
    actor.userId,
    now,
    event(actor, meta, now, {
      eventType: 'MFA_POLICY_CHANGED',
      severity: 'medium',
      description: 'Second-factor policy of a role changed',
      metadata: { roleId, policy },
    }),
  );
  if (!ok) throw new AppError('ROLE_NOT_FOUND', 'Role not found');
  return rolePolicies(db);
}

/**
 * GET /api/admin/second-factors: who has a second factor an administrator could reset: an authenticator app or a
 * passkey (issue 21 item 13). `enabledAt`: the earliest of them.
 */
export async function totpUsers(db: Db): Promise<TotpUser[]> {
  const rows = await listSecondFactorUsers(db);
  return rows.map((r) => {
    const since = [r.totpEnabledAt, r.firstPasskeyAt].filter((d): d is Date => d !== null).sort((a, b) => a.getTime() - b.getTime())[0];
    return {
      userId: r.userId,
      firstName: r.firstName,
      lastName: r.lastName,
      email: r.email,
      roleId: r.roleId,
      enabledAt: (since ?? new Date(0)).toISOString(),
      totp: r.totpEnabledAt !== null,
      passkeys: r.passkeys,
    };
  });
}

/**
 * After a staff user's passkey is registered (issue 21 item 13): when no unused recovery code is left (a passkey as the
 * first or only second factor), a new set is issued, shown once, stored hashed. Null when codes remain.
 */
export async function recoveryCodesForNewPasskey(
  db: Db,
  owner: Pick<CodeOwner, 'userId' | 'facility'>,
  meta: RequestMeta,
  now: Date,
): Promise<string[] | null> {
  if ((await countRecoveryCodesLeft(db, owner.userId)) > 0) return null;
  const codes = newRecoveryCodes(RECOVERY_CODE_COUNT);
  await replaceRecoveryCodes(
    db,
    owner.userId,
    codes.map(recoveryCodeHash),
    now,
    event(owner, meta, now, {
      eventType: 'MFA_RECOVERY_CODES_ISSUED',
      severity: 'medium',
      description: 'Recovery codes issued with a new passkey',
      metadata: { recoveryCodes: RECOVERY_CODE_COUNT, with: 'passkey' },
    }),
  );
  return codes;
}

/** The high-severity security event of an administrator's reset of a user's second factor(s). */
const adminResetEvent = (
  { actor, meta }: RequestScope<StaffActor>,
  userId: string,
  now: Date,
  description: string,
  metadata: Record<string, unknown> = {},
): SecurityEventRow =>
  event({ userId, facility: actor.facility }, meta, now, {
    eventType: 'MFA_RESET_BY_ADMIN',
    severity: 'high',
    description,
    metadata: { resetBy: actor.userId, resetByEmail: actor.email, ...metadata },
  });

/**
 * DELETE /api/admin/users/{id}/second-factors (issue 21 item 13): a user lost their passkey or phone. An
 * administrator (users.approve) removes every second factor (authenticator app, passkeys, recovery codes), any
 * pending sign-in step and every open session; audited (UPDATE USER) with a high-severity security event. Nobody resets
 * their own. 404 unknown user, 409 USER_NO_SECOND_FACTOR when there is nothing to reset.
 */
export async function resetUserSecondFactors(scope: RequestScope<StaffActor>, userId: string): Promise<void> {
  const { actor } = scope;
  if (userId === actor.userId) throw new AppError('OWN_SECOND_FACTOR_RESET', 'You cannot reset your own second factor');
  await inAuditedTransaction(scope, async (ctx) => {
    const result = await resetSecondFactorsOf(
      ctx.tx,
      userId,
      adminResetEvent(scope, userId, ctx.now, 'Second factors (authenticator app and passkeys) reset by an administrator', {
        scope: 'all',
      }),
    );
    if (result === 'missing') throw new AppError('USER_NOT_FOUND', 'User not found');
    if (result === 'none') throw new AppError('USER_NO_SECOND_FACTOR', 'This user has no second factor');
    return ctx.audited(null, {
      action: 'UPDATE',
      resourceType: 'USER',
      resourceId: userId,
      oldValues: { totpEnabledAt: result.totpEnabledAt?.toISOString() ?? null, passkeys: result.passkeys },
      newValues: { secondFactors: 'reset by administrator' },
    });
  });
}

/**
 * DELETE /api/admin/users/{id}/totp: a user lost their authenticator app. An administrator (users.approve) removes it
 * with its recovery codes, any pending sign-in step and every open session of the user (whoever holds the lost phone
 * may be signed in); audited (UPDATE USER) with a high-severity security event
 * naming both. At the next sign-in a role that requires a second factor asks for a new enrolment (a passkey, if the
 * user has one, still counts); other roles sign in with the password and may enrol again on My Profile. Nobody resets
 * their own: that would skip the code that switching it off asks for.
 */
export async function resetUserTotp(scope: RequestScope<StaffActor>, userId: string): Promise<void> {
  const { actor } = scope;
  if (userId === actor.userId) throw new AppError('OWN_SECOND_FACTOR_RESET', 'You cannot reset your own authenticator app');
  await inAuditedTransaction(scope, async (ctx) => {
    const result = await resetTotpOf(
      ctx.tx,
      userId,
      adminResetEvent(scope, userId, ctx.now, 'Authenticator app reset by an administrator'),
    );
    if (result === 'missing') throw new AppError('USER_NOT_FOUND', 'User not found');
    if (result === 'not_enrolled') throw new AppError('USER_TOTP_NOT_ENROLLED', 'This user has no authenticator app');
    return ctx.audited(null, {
      action: 'UPDATE',
      resourceType: 'USER',
      resourceId: userId,
      oldValues: { totpEnabledAt: result.toISOString() },
      newValues: { totp: 'reset by administrator' },
    });
  });
}
