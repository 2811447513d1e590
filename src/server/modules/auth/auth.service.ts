// Staff sign-in, registration and sign-out (SPEC §4, §7; DESIGN.md §5).
import { randomBytes } from 'node:crypto';
import {
  INVALID_CREDENTIALS_MESSAGE,
  REGISTRATION_ROLE_IDS,
  type CurrentUser,
  type LoginInput,
  type RegisterInput,
  type RegistrationRole,
} from '../../../contracts/auth';
import type { Actor, RequestMeta } from '../../context/actor';
import { staffActorFor } from '../../context/request-context';
import type { Db, DbOrTx } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { hashPassword, verifyPassword } from '../../security/password';
import { assertAcceptablePassword } from '../../security/password-policy';
import { needsSetup } from '../setup/setup.service';
import { createUser, getCurrentUser, loginCandidate } from '../users/users.service';
import { insertSecurityEvent, listActiveRoles, recordLoginSuccess, type SecurityEventRow } from './auth.repository';
import { queueMail } from './mail-outbox.repository';
import { recordSignInFailure, refuseIfThrottled, serializeSignIn, type SignInAttempt } from './sign-in-throttle.service';

export { LOGIN_THROTTLE } from './sign-in-throttle.service';
export type { SecurityEventRow } from './auth.repository';

/** The one answer for unknown e-mail, wrong password and an account that is not active. */
const invalidCredentials = (): AppError => new AppError('INVALID_CREDENTIALS', INVALID_CREDENTIALS_MESSAGE);

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
  return serializeSignIn(subject, meta, () => checkStaffLogin(deps, subject, input.password, meta));
}

async function checkStaffLogin({ db, config }: AppDeps, subject: string, password: string, meta: RequestMeta): Promise<VerifiedLogin> {
  const attempt: SignInAttempt = { subject, meta, now: config.now() };
  await refuseIfThrottled(db, attempt);

  const candidate = await loginCandidate(db, subject);
  const passwordOk = await verifyPassword(candidate?.passwordHash ?? (await warmDummyHash()), password);
  let failure: string | null = null;
  if (!candidate) failure = 'unknown_user';
  else if (!passwordOk) failure = 'wrong_password';
  else if (candidate.accountStatus !== 'active') failure = `account_${candidate.accountStatus}`;
  else if (!candidate.isActive) failure = 'account_inactive';
  if (!candidate || failure) {
    await recordSignInFailure(db, attempt, { reason: failure }, { userId: candidate?.id ?? null, facility: candidate?.facility ?? null });
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
  /** The second factor proven with it, if any (a passkey alone is both: decision 026). */
  method?: 'totp' | 'passkey',
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
      metadata: method ? { secondFactor: method } : null,
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

/**
 * A pending account (isActive false, accountStatus 'pending') awaiting an administrator. An e-mail that already has an
 * account gets the same answer after the same work (the password hashed, one insert), and its owner is told by a
 * queued e-mail (issue 21 item 12, decision 033): registration never says whether an e-mail is registered.
 */
export async function register({ db, config }: AppDeps, input: RegisterInput, meta: RequestMeta): Promise<void> {
  // Until the first administrator exists nobody could approve a registration, and an anonymous one must not
  // stand in the way of setup (issue 10 item 5).
  if (await needsSetup(db)) throw new AppError('SETUP_REQUIRED', 'Registration opens once first-time setup is done');
  // Common, breached and personal passwords are refused before the e-mail is looked at (issue 21 item 14).
  assertAcceptablePassword(input.password, input);
  const email = input.email.toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const now = config.now();
  const id = await createUser(
    db,
    {
      firstName: input.firstName,
      lastName: input.lastName,
      email,
      passwordHash,
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
  if (id) return;
  // Taken: the unique index said so. The owner hears of it; the caller sees what a new registration sees.
  const existing = await loginCandidate(db, email);
  await queueMail(
    db,
    { recipient: email, template: 'registration_attempt', data: { at: now.toISOString(), ip: meta.ip }, createdAt: now },
    {
      userId: existing?.id ?? null,
      eventType: 'REGISTER_EXISTING_EMAIL',
      severity: 'medium',
      description: 'Registration attempted with the e-mail of an existing account; its owner is told by e-mail',
      metadata: { roleId: input.roleId },
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      timestamp: now,
      facility: existing?.facility ?? null,
    },
  );
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

/** A security event for other modules (the portal's activation codes and refusals), in the caller's transaction if any. */
export async function recordSecurityEvent(db: DbOrTx, event: SecurityEventRow): Promise<void> {
  await insertSecurityEvent(db, event);
}

export function registrationRoles(db: Db): Promise<RegistrationRole[]> {
  return listActiveRoles(db, REGISTRATION_ROLE_IDS);
}
