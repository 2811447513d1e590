// The sign-in throttle (DESIGN.md §5, decision 004), shared by the staff sign-in and the patient sign-in (portal
// module): every attempt is a security_events row with a subject (lower-cased e-mail, or NC number), and those rows
// are what the throttle counts.
import { ACCOUNT_LOCKED_MESSAGE, IP_THROTTLED_MESSAGE } from '../../../contracts/auth';
import type { RequestMeta } from '../../context/actor';
import type { Db } from '../../db/client';
import { tooManyRequests, type AppError } from '../../errors/app-error';
import { serializeByKey } from '../../security/serialize-by-key';
import { insertSecurityEvent, readThrottleState } from './auth.repository';

/** DESIGN.md §5: 5 failures for an account in 15 minutes lock it for 15 minutes; 100 attempts per IP per 15 minutes. */
export const LOGIN_THROTTLE = { windowSeconds: 15 * 60, failureLimit: 5, ipLimit: 100 } as const;

/** One sign-in attempt: what it named (lower-cased e-mail, or NC number) and where it came from. */
export interface SignInAttempt {
  subject: string;
  meta: RequestMeta;
  now: Date;
}

/** Runs one sign-in check at a time per subject and per address in this process (see verifyStaffLogin). */
export function serializeSignIn<T>(subject: string, meta: RequestMeta, work: () => Promise<T>): Promise<T> {
  return serializeByKey(`login-subject:${subject}`, () => serializeByKey(`login-ip:${meta.ip}`, work));
}

/**
 * Throws 429 (recording a LOGIN_LOCKED event) when the address has used its attempts for the window, or when the
 * subject is locked after LOGIN_THROTTLE.failureLimit failures. The answer is the same whether the subject exists.
 */
export async function refuseIfThrottled(db: Db, attempt: SignInAttempt, metadata: Record<string, unknown> = {}): Promise<void> {
  const { subject, meta, now } = attempt;
  const refuse = async (reason: 'ip' | 'account', description: string, error: AppError): Promise<never> => {
    await insertSecurityEvent(db, {
      subject,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      timestamp: now,
      eventType: 'LOGIN_LOCKED',
      severity: 'high',
      description,
      metadata: { ...metadata, reason },
    });
    throw error;
  };

  const state = await readThrottleState(db, { subject, ip: meta.ip, now, ...LOGIN_THROTTLE });
  if (state.ipAttempts >= LOGIN_THROTTLE.ipLimit) {
    await refuse(
      'ip',
      'Sign-in refused: too many attempts from this address',
      tooManyRequests('NETWORK_THROTTLED', IP_THROTTLED_MESSAGE, LOGIN_THROTTLE.windowSeconds),
    );
  }
  const lockedUntil = state.lockedSince ? state.lockedSince.getTime() + LOGIN_THROTTLE.windowSeconds * 1000 : 0;
  if (lockedUntil > now.getTime()) {
    const retryAfter = (lockedUntil - now.getTime()) / 1000;
    await refuse(
      'account',
      'Sign-in refused: account locked after repeated failures',
      tooManyRequests('LOCKED_OUT', ACCOUNT_LOCKED_MESSAGE, retryAfter),
    );
  }
}

/** Records a failed attempt (LOGIN_FAILURE): what the throttle counts. */
export async function recordSignInFailure(
  db: Db,
  attempt: SignInAttempt,
  metadata: Record<string, unknown>,
  who: { userId?: string | null; facility?: string | null } = {},
): Promise<void> {
  await insertSecurityEvent(db, {
    subject: attempt.subject,
    ipAddress: attempt.meta.ip,
    userAgent: attempt.meta.userAgent,
    timestamp: attempt.now,
    userId: who.userId ?? null,
    facility: who.facility ?? null,
    eventType: 'LOGIN_FAILURE',
    severity: 'medium',
    description: 'Sign-in failed',
    metadata,
  });
}

/** Records a successful attempt that opens no staff user_sessions row (a patient sign-in): LOGIN_SUCCESS. */
export async function recordSignInSuccess(
  db: Db,
  attempt: SignInAttempt,
  description: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  await insertSecurityEvent(db, {
    subject: attempt.subject,
    ipAddress: attempt.meta.ip,
    userAgent: attempt.meta.userAgent,
    timestamp: attempt.now,
    eventType: 'LOGIN_SUCCESS',
    severity: 'low',
    description,
    metadata,
  });
}
