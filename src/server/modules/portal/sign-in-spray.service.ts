// Password-spray defence for the patient sign-in (issue 21 item 3, decision 032). The NC-number lockout (5 failures,
// decision 004) does not see an attacker who tries a few PINs on each of many numbers from rotating addresses, so:
// failed patient sign-ins are limited per address across numbers (PORTAL_FAILED_SIGN_INS_PER_IP per 15 minutes) and
// for everyone together per minute (PORTAL_FAILED_SIGN_INS_PER_MINUTE), and failures naming many numbers with few
// guesses each raise a SIGN_IN_SPRAY_ALERT for the privacy review.
import { IP_THROTTLED_MESSAGE } from '../../../contracts/auth';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError, tooManyRequests } from '../../errors/app-error';
import { recordSecurityEvent } from '../auth/auth.service';
import { LOGIN_THROTTLE, type SignInAttempt } from '../auth/sign-in-throttle.service';
import { countPatientFailures, raiseSprayAlert } from './sign-in-spray.repository';

const IP_WINDOW_MS = LOGIN_THROTTLE.windowSeconds * 1000;
const MINUTE_MS = 60_000;

export const PORTAL_SIGN_IN_BUSY_MESSAGE = 'Too many failed patient sign-ins just now. Try again in a minute.';

/**
 * Throws 429 before the credentials are checked when this address has failed PORTAL_FAILED_SIGN_INS_PER_IP patient
 * sign-ins in 15 minutes (NETWORK_THROTTLED), or all addresses together PORTAL_FAILED_SIGN_INS_PER_MINUTE in the last
 * minute (PORTAL_SIGN_IN_BUSY); records the refusal as LOGIN_LOCKED with its reason.
 */
export async function refuseIfPortalFailuresExceeded(db: Db, config: Config, attempt: SignInAttempt, method: string): Promise<void> {
  const limits = config.portalSignIn;
  const { now, meta } = attempt;
  const counts = await countPatientFailures(db, {
    ip: meta.ip,
    ipSince: new Date(now.getTime() - IP_WINDOW_MS),
    ipCap: limits.failuresPerIp,
    minuteSince: new Date(now.getTime() - MINUTE_MS),
    minuteCap: limits.failuresPerMinute,
  });
  const reason =
    counts.fromIp >= limits.failuresPerIp
      ? 'portal_address_failures'
      : counts.lastMinute >= limits.failuresPerMinute
        ? 'portal_failures_per_minute'
        : null;
  if (!reason) return;
  await recordSecurityEvent(db, {
    subject: attempt.subject,
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: now,
    eventType: 'LOGIN_LOCKED',
    severity: 'high',
    description:
      reason === 'portal_address_failures'
        ? 'Patient sign-in refused: too many failed patient sign-ins from this address'
        : 'Patient sign-in refused: too many failed patient sign-ins in the last minute',
    metadata: { kind: 'patient', method, reason, failuresFromAddress: counts.fromIp, failuresLastMinute: counts.lastMinute },
  });
  if (reason === 'portal_address_failures') throw tooManyRequests('NETWORK_THROTTLED', IP_THROTTLED_MESSAGE, IP_WINDOW_MS / 1000);
  throw new AppError('PORTAL_SIGN_IN_BUSY', PORTAL_SIGN_IN_BUSY_MESSAGE, { headers: { 'retry-after': '60' } });
}

/** After a failed patient sign-in: SIGN_IN_SPRAY_ALERT when many numbers failed recently with few guesses each. */
export function notePortalSpray(db: Db, config: Config, attempt: SignInAttempt): Promise<boolean> {
  const { sprayAccounts, sprayMinutes } = config.alerts;
  return raiseSprayAlert(db, {
    now: attempt.now,
    minutes: sprayMinutes,
    threshold: sprayAccounts,
    lockoutFailures: LOGIN_THROTTLE.failureLimit,
    ip: attempt.meta.ip,
    userAgent: attempt.meta.userAgent,
    description: `Failed patient sign-ins named more than ${sprayAccounts} NC numbers within ${sprayMinutes} minutes, few guesses each`,
  });
}
