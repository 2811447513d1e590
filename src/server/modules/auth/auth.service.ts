// Staff sign-in, registration and sign-out (SPEC §4, §7; DESIGN.md §5).
import { randomBytes } from 'node:crypto';
import {
  ACCOUNT_LOCKED_MESSAGE,
  INVALID_CREDENTIALS_MESSAGE,
  IP_THROTTLED_MESSAGE,
  REGISTRATION_ROLE_IDS,
  type CurrentUser,
  type LoginInput,
  type RegisterInput,
  type RegistrationRole,
} from '../../../contracts/auth';
import type { Actor, RequestMeta } from '../../context/actor';
import { staffActorFor } from '../../context/request-context';
import type { Db } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError, conflict, tooManyRequests } from '../../errors/app-error';
import { hashPassword, verifyPassword } from '../../security/password';
import { serializeByKey } from '../../security/serialize-by-key';
import { createUser, getCurrentUser, isEmailTaken, loginCandidate } from '../users/users.service';
import {
  insertSecurityEvent,
  listActiveRoles,
  readThrottleState,
  recordLoginSuccess,
  type SecurityEventRow,
} from './auth.repository';

/** DESIGN.md §5: 5 failures for an account in 15 minutes lock it for 15 minutes; 100 attempts per IP per 15 minutes. */
export const LOGIN_THROTTLE = { windowSeconds: 15 * 60, failureLimit: 5, ipLimit: 100 } as const;

/** The one answer for unknown e-mail, wrong password and an account that is not active. */
const invalidCredentials = (): AppError => new AppError('UNAUTHENTICATED', 401, INVALID_CREDENTIALS_MESSAGE);

// Unknown e-mails are verified against this hash, so they take as long as known ones.
let dummyHash: Promise<string> | undefined;
export function warmDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex')).catch((err: unknown) => {
    dummyHash = undefined; // try again on the next unknown e-mail
    throw err;
  });
  return dummyHash;
}

export interface VerifiedLogin {
  userId: string;
  facility: string | null;
  subject: string;
}

/**
 * Checks the throttle and the credentials; throws 429 or the one 401, recording the attempt either way.
 * Attempts for one account, and from one address, are checked one after another in this process, so a parallel
 * burst cannot slip past the limits before its failures are recorded (across instances: at most one each).
 */
export function verifyStaffLogin(deps: AppDeps, input: LoginInput, meta: RequestMeta): Promise<VerifiedLogin> {
  const subject = input.email.toLowerCase();
  return serializeByKey(`login-subject:${subject}`, () =>
    serializeByKey(`login-ip:${meta.ip}`, () => checkStaffLogin(deps, subject, input.password, meta)),
  );
}

async function checkStaffLogin({ db, config }: AppDeps, subject: string, password: string, meta: RequestMeta): Promise<VerifiedLogin> {
  const now = config.now();
  const attempt = { subject, ipAddress: meta.ip, userAgent: meta.userAgent, timestamp: now };
  const refuse = async (reason: 'ip' | 'account', description: string, error: AppError): Promise<never> => {
    await insertSecurityEvent(db, { ...attempt, eventType: 'LOGIN_LOCKED', severity: 'high', description, metadata: { reason } });
    throw error;
  };

  const state = await readThrottleState(db, { subject, ip: meta.ip, now, ...LOGIN_THROTTLE });
  if (state.ipAttempts >= LOGIN_THROTTLE.ipLimit) {
    await refuse('ip', 'Sign-in refused: too many attempts from this address', tooManyRequests(IP_THROTTLED_MESSAGE, LOGIN_THROTTLE.windowSeconds));
  }
  const lockedUntil = state.lockedSince ? state.lockedSince.getTime() + LOGIN_THROTTLE.windowSeconds * 1000 : 0;
  if (lockedUntil > now.getTime()) {
    const retryAfter = (lockedUntil - now.getTime()) / 1000;
    await refuse('account', 'Sign-in refused: account locked after repeated failures', tooManyRequests(ACCOUNT_LOCKED_MESSAGE, retryAfter));
  }

  const candidate = await loginCandidate(db, subject);
  const passwordOk = await verifyPassword(candidate?.passwordHash ?? (await warmDummyHash()), password);
  let failure: string | null = null;
  if (!candidate) failure = 'unknown_user';
  else if (!passwordOk) failure = 'wrong_password';
  else if (candidate.accountStatus !== 'active') failure = `account_${candidate.accountStatus}`;
  else if (!candidate.isActive) failure = 'account_inactive';
  if (!candidate || failure) {
    await insertSecurityEvent(db, {
      ...attempt,
      userId: candidate?.id ?? null,
      eventType: 'LOGIN_FAILURE',
      severity: 'medium',
      description: 'Sign-in failed',
      metadata: { reason: failure },
      facility: candidate?.facility ?? null,
    });
    throw invalidCredentials();
  }
  return { userId: candidate.id, facility: candidate.facility, subject };
}

/** After the session is open: last_login_at, user_sessions, LOGIN_SUCCESS; returns the signed-in user. */
export async function completeStaffLogin(
  { db, config }: AppDeps,
  login: VerifiedLogin,
  sid: string,
  meta: RequestMeta,
): Promise<CurrentUser> {
  const now = config.now();
  await recordLoginSuccess(
    db,
    { userId: login.userId, sid, now, ip: meta.ip, userAgent: meta.userAgent },
    {
      userId: login.userId,
      subject: login.subject,
      eventType: 'LOGIN_SUCCESS',
      severity: 'low',
      description: 'Signed in',
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      timestamp: now,
      facility: login.facility,
    },
  );
  const actor = await staffActorFor(db, login.userId);
  if (!actor) throw invalidCredentials(); // deactivated between the check and now
  return getCurrentUser(db, actor);
}

/** A pending account (isActive false, accountStatus 'pending') awaiting an administrator. */
export async function register({ db, config }: AppDeps, input: RegisterInput, meta: RequestMeta): Promise<void> {
  const email = input.email.toLowerCase();
  const taken = (): AppError => conflict('An account with this email already exists');
  if (await isEmailTaken(db, email)) throw taken();
  const now = config.now();
  const id = await createUser(
    db,
    {
      firstName: input.firstName,
      lastName: input.lastName,
      email,
      passwordHash: await hashPassword(input.password),
      roleId: input.roleId,
      facility: input.facility,
      department: input.department,
      phoneNumber: input.phoneNumber,
      isActive: false,
      accountStatus: 'pending',
      createdAt: now,
    },
    {
      eventType: 'REGISTER',
      severity: 'low',
      description: 'Staff registration submitted',
      metadata: { roleId: input.roleId },
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      timestamp: now,
      facility: input.facility,
    },
  );
  if (!id) throw taken();
}

/** Records the sign-out of the session that just ended (nothing when there was none). */
export async function recordLogout(db: Db, actor: Actor | null, sid: string | null, meta: RequestMeta, now: Date): Promise<void> {
  if (!sid || !actor) return;
  const event: SecurityEventRow = {
    userId: actor.kind === 'staff' ? actor.userId : null,
    eventType: 'LOGOUT',
    severity: 'low',
    description: 'Signed out',
    metadata: actor.kind === 'staff' ? { kind: 'staff' } : { kind: 'patient', patientId: actor.patientId },
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: now,
    facility: actor.kind === 'staff' ? actor.facility : null,
  };
  await insertSecurityEvent(db, event);
}

export function registrationRoles(db: Db): Promise<RegistrationRole[]> {
  return listActiveRoles(db, REGISTRATION_ROLE_IDS);
}
