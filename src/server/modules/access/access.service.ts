// Record access (DESIGN.md §4, break-the-glass): a user opens a patient's record only after confirming the
// patient's consent or stating a reason; the confirmation is a grant for 8 hours, audited with its reason.
// Other modules call assertLiveGrant (or patientWithLiveGrant) inside their own transaction before any record read
// or change.
import {
  ACCESS_GRANT_HOURS,
  ACCESS_NOT_CONFIRMED_MESSAGE,
  recordAccessInput,
  type AccessGrant,
  type PatientRead,
  type RecordAccessInput,
  type RecordPatient,
} from '../../../contracts/access';
import type { FieldIssue } from '../../../contracts/errors';
import { auditActorOf } from '../../audit/audit-writer';
import { actorRoleAtTheTime, type ActorCheck, type RequestMeta, type StaffActor } from '../../context/actor';
import { UnconfirmedActorError } from '../../context/actor-check';
import { actorSlotsOf } from '../../context/session';
import { inGatedStatement } from '../../context/statement-gate';
import type { Config } from '../../config';
import { inAuditedTransaction, type GatedScope, type RequestScope } from '../../context/data-context';
import type { Db, DbOrTx } from '../../db/client';
import { AppError, validationFailed } from '../../errors/app-error';
import { recordSecurityEvent } from '../auth/auth.service';
import { reauthRequired, reauthSlotValues } from '../auth/mfa.service';
import { grantVolumeAlertOf } from '../privacy/alerts.service';
import { breakGlassInHour, findPatientWithGrant, grantNowOrAt, liveGrant } from './access.repository';
import { findPatientRead } from './patient-read.repository';
import { insertGrantAudited } from './grant-audited.repository';

const HOUR_MS = 60 * 60 * 1000;

/** What a grant is checked against: the re-authentication volume (ALERT_GRANTS_PER_HOUR) and the break-the-glass ceiling. */
export interface GrantLimits {
  grantsPerHour: number;
  /** BREAK_GLASS_MAX_PER_HOUR (issue 21 item 8); no ceiling when absent. */
  breakGlassPerHour?: number;
}

export const grantLimitsOf = (config: Pick<Config, 'alerts' | 'breakGlassPerHour'>): GrantLimits => ({
  grantsPerHour: config.alerts.grantsPerHour,
  breakGlassPerHour: config.breakGlassPerHour,
});

/**
 * 429 BREAK_GLASS_LIMIT (with Retry-After: when the oldest counted grant leaves the hour) once the user or client has
 * made `max` break-the-glass grants in the last hour; the refusal is a high-severity security event for the reviewers.
 */
async function refuseOverBreakGlassCeiling(db: Db, actor: StaffActor, meta: RequestMeta, max: number, now: Date): Promise<void> {
  const { count, oldest } = await breakGlassInHour(db, actor.userId, now);
  if (count < max) return;
  await recordSecurityEvent(db, {
    userId: actor.userId,
    eventType: 'BREAK_GLASS_LIMIT_REACHED',
    severity: 'high',
    description: `Emergency access refused: ${count} break-the-glass confirmations within the hour (ceiling ${max})`,
    metadata: { count, max, ...(actor.client ? { apiClientId: actor.client.id } : {}) },
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: now,
    facility: actor.facility,
  });
  const retryAfter = oldest ? Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000)) : 3600;
  throw new AppError('BREAK_GLASS_LIMIT', `No more than ${max} emergency accesses an hour`, {
    headers: { 'retry-after': String(retryAfter) },
  });
}

export const patientNotFound = (): AppError => new AppError('PATIENT_NOT_FOUND', 'Patient not found');
/**
 * 409 PATIENT_JOINED (decision 048): the record was joined into `survivorId`; its NC number is told only to a user
 * who may open the survivor.
 */
export const patientJoined = (survivorId: number, survivorIdNumber: string | null = null): AppError =>
  new AppError('PATIENT_JOINED', 'This record was joined into another record', {
    details: { survivorId, ...(survivorIdNumber ? { survivorIdNumber } : {}) },
  });
export const accessNotConfirmed = (): AppError => new AppError('ACCESS_GRANT_REQUIRED', ACCESS_NOT_CONFIRMED_MESSAGE);

function parseAccess(input: RecordAccessInput): { consent: boolean; reason: string | null } {
  const parsed = recordAccessInput.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues: FieldIssue[] = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw validationFailed(issues);
}

/** A record-access confirmation: the patient, and the patient's consent or the reason (break-the-glass). */
export interface GrantRequest {
  patientId: number;
  access: RecordAccessInput;
}

/**
 * POST /api/patients/{id}/access: a grant for this user and patient lasting 8 hours from the scope's `now`, with its
 * audit row (VIEW PATIENT, complianceFlags CONSENT or BREAK_GLASS with the reason) in the same statement, under the
 * scope's gate (decision 059: the cached actor's confirmation and the user's grant limit, 429 over it). The gate's
 * volume rules ask for re-authentication over the hourly volume and refuse break-the-glass over the ceiling. 404
 * for an unknown patient.
 */
export async function grantRecordAccess(scope: GatedScope<StaffActor>, { patientId, access }: GrantRequest): Promise<AccessGrant> {
  const { db, actor, meta, now } = scope;
  const limits = grantLimitsOf(scope.gate.rules);
  const { consent, reason } = parseAccess(access);
  // Past the hard hourly ceiling no break-the-glass grant is made, whoever asks (issue 21 item 8).
  if (!consent && limits.breakGlassPerHour) await refuseOverBreakGlassCeiling(db, actor, meta, limits.breakGlassPerHour, now);
  // Break-the-glass needs a second factor proven in this session within the last minutes (issue 12 item 3; decision
  // 024); any grant, with consent or without, beyond the hourly volume (issue 10 item 8) needs a fresh proof too: the
  // second factor, or the password where the user has none (issue 21 items 8 and 20, decision 035). The grant's
  // statement counts the volume and checks the proof itself (mfa.repository's reauthRuleSlotted; decision 060). A
  // system client has no session to prove anything in: the ceiling and the grant limit bound it.
  const reauth = actor.client
    ? null
    : reauthSlotValues(actor.userId, meta.sessionHash, now, { breakGlass: !consent, grantsPerHour: limits.grantsPerHour });
  const expiresAt = new Date(now.getTime() + ACCESS_GRANT_HOURS * HOUR_MS);
  // The grant and its audit row in one statement (grant-audited.repository.ts); grantId is the inserted grant's.
  const audit = {
    actor: auditActorOf(actor),
    meta,
    action: 'VIEW',
    resourceType: 'PATIENT',
    resourceId: patientId,
    newValues: { access: 'GRANTED', expiresAt: expiresAt.toISOString(), role: actorRoleAtTheTime(actor) },
    complianceFlags: consent ? { type: 'CONSENT' } : { type: 'BREAK_GLASS', reason },
  } as const;
  const grant = { userId: actor.userId, patientId, consent, reason, grantedAt: now, expiresAt };
  // Over the hourly volume the same statement raises GRANT_VOLUME_ALERT for the privacy review (decision 011).
  const volumeAlert = grantVolumeAlertOf(limits, now);
  const outcome = await inGatedStatement(scope, (gate) => insertGrantAudited(db, grant, audit, { ...gate, reauth, volumeAlert }));
  // A closed gate was answered by inGatedStatement (the request context's retry, or 429); nothing was written.
  if (outcome.kind === 'closed') throw new Error('the grant statement answered a closed gate');
  if (outcome.kind === 'reauth') throw reauthRequired(outcome.hasSecondFactor ? 'second_factor' : 'password');
  if (outcome.kind === 'missing') throw patientNotFound();
  if (outcome.kind === 'joined') throw patientJoined(outcome.survivorId);
  const row = outcome.grant;
  return { ...row, grantedAt: row.grantedAt.toISOString(), expiresAt: row.expiresAt.toISOString() };
}

/**
 * Refuses unless this user holds a live grant for this patient: 403 FORBIDDEN ('Access to this record has not been
 * confirmed'), 404 when the patient does not exist, 409 PATIENT_JOINED when it was joined into another record. Pass the
 * transaction of the read or change it guards. With `check` (the scope's gate) it also confirms the worker's cached
 * actor (decision 028) and throws UnconfirmedActorError when it was not.
 */
export async function assertLiveGrant(
  db: DbOrTx,
  actor: StaffActor,
  patientId: number,
  now: Date = new Date(),
  check?: ActorCheck,
): Promise<void> {
  const found = await liveGrant(db, actor.userId, patientId, now, check ? actorSlotsOf(check) : undefined);
  if (!found.actorOk) throw new UnconfirmedActorError();
  if (found.granted) return;
  if (found.survivorId !== null) throw patientJoined(found.survivorId, found.survivorIdNumber);
  throw found.found ? accessNotConfirmed() : patientNotFound();
}

/**
 * Offline clinic mode (decision 061): refuses a write a device made offline unless this user holds a live grant for the
 * patient now, or held one whose window met `window` (the device's time, give or take the clock skew allowed): 403
 * OFFLINE_NO_GRANT, 404 for an unknown patient, 409 PATIENT_JOINED (with the survivor) for a joined-away one.
 */
export async function assertGrantNowOrAt(
  db: DbOrTx,
  actor: StaffActor,
  patientId: number,
  now: Date,
  window: { from: Date; to: Date },
): Promise<void> {
  const found = await grantNowOrAt(db, actor.userId, patientId, now, window);
  if (found.granted) return;
  if (found.survivorId !== null) throw patientJoined(found.survivorId);
  if (!found.found) throw patientNotFound();
  throw new AppError('OFFLINE_NO_GRANT', 'No access grant for this patient covered the time this was entered offline');
}

/**
 * The patient's demographics, refused like assertLiveGrant (403 without a live grant, 404 for an unknown patient);
 * one query. Not audited: the caller records the read it is part of.
 */
export async function patientWithLiveGrant(
  db: DbOrTx,
  actor: StaffActor,
  patientId: number,
  now: Date = new Date(),
): Promise<RecordPatient> {
  const found = await findPatientWithGrant(db, actor.userId, patientId, now);
  if (!found) throw patientNotFound();
  if (found.survivorId !== null) throw patientJoined(found.survivorId);
  if (!found.granted) throw accessNotConfirmed();
  return found.patient;
}

/**
 * GET /api/patients/{id}: the demographics with a live grant, audited as VIEW PATIENT in the same transaction, with
 * the records joined into this one (`replaces`, only when there are any). A record joined away (decision 048) is read, inactive, with
 * `replacedBy`, by a user who may open the record it now belongs to; anyone else is answered 409 PATIENT_JOINED.
 */
export async function readPatient(scope: RequestScope<StaffActor>, patientId: number): Promise<PatientRead> {
  return inAuditedTransaction(scope, async (ctx) => {
    const read = await findPatientRead(ctx.tx, ctx.actor.userId, patientId, ctx.now);
    if (!read) throw patientNotFound();
    if (read.survivor) {
      if (!read.survivorGranted) throw patientJoined(read.survivor.id);
    } else if (!read.granted) throw accessNotConfirmed();
    const body: PatientRead = read.survivor
      ? { ...read.patient, replacedBy: read.survivor }
      : { ...read.patient, ...(read.replaces.length > 0 ? { replaces: read.replaces } : {}) };
    return ctx.audited(body, {
      action: 'VIEW',
      resourceType: 'PATIENT',
      resourceId: patientId,
      patientId,
      newValues: { view: 'DEMOGRAPHICS', ...(read.survivor ? { replacedBy: read.survivor.id } : {}) },
    });
  });
}
