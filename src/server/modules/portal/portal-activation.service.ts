// Portal activation (docs/decisions/016-patient-portal-second-factor.md): a clinic issues a one-time code (when a
// patient is added, or at a desk), the patient uses it once with NC number and date of birth to choose a PIN.
import { normalizeActivationCode, PATIENT_ACTIVATION_FAILED_MESSAGE } from '../../../contracts/portal-login';
import type { PatientActivateInput, PortalActivation, PortalNotices, PortalStatus } from '../../../contracts/portal';
import { writeAudit } from '../../audit/audit-writer';
import type { Config } from '../../config';
import { notePortalCodeVolume, raiseDeskActivationAlert } from '../privacy/alerts.service';
import { actorRoleAtTheTime, type RequestMeta, type StaffActor } from '../../context/actor';
import { inAuditedTransaction, type ContextAuditEntry, type DataContext, type RequestScope } from '../../context/data-context';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { hashPassword } from '../../security/password';
import { recordSecurityEvent } from '../auth/auth.service';
import { getPatient } from '../patients/patients.service';
import { ACTIVATION_CODE_TTL_MS, formatActivationCode, newActivationCode } from './activation-code';
import { signInPatientWith, verifyOrDummy, type PatientProof, type VerifiedPatient } from './patient-login.service';
import {
  clearResetNotice,
  markSuspectSession,
  readResetNotice,
  readLiveCode,
  readStaffNames,
  storeActivationCode,
  storeResetConfirmation,
  useActivationCode,
  type CodeUse,
  type PortalSignInRow,
  type ResetNotice,
} from './portal-credentials.repository';

/** A code and its hash, made before the transaction that stores it (argon2id takes a while). */
export interface PreparedActivationCode {
  code: string;
  codeHash: string;
}

export async function prepareActivationCode(): Promise<PreparedActivationCode> {
  const code = newActivationCode();
  return { code, codeHash: await hashPassword(code) };
}

/** Where a code was issued: with the new patient, or at a clinic desk on request (also a PIN reset). */
export type ActivationIssuedVia = 'registration' | 'desk';

/**
 * Stores the patient's new live code (replacing any earlier one) with its PORTAL_CODE_ISSUED security event, in the
 * caller's transaction; answers the code once and the audit row the caller records with it (UPDATE PATIENT, flagged
 * PORTAL_ACTIVATION, with the issuer's role at the time: the patient's access history lists it). Never the code itself.
 */
export async function storeIssuedActivationCode(
  ctx: DataContext<StaffActor>,
  patientId: number,
  prepared: PreparedActivationCode,
  via: ActivationIssuedVia,
): Promise<{ activation: PortalActivation; audit: ContextAuditEntry }> {
  const expiresAt = new Date(ctx.now.getTime() + ACTIVATION_CODE_TTL_MS);
  const { needsCurrentPin } = await storeActivationCode(ctx.tx, {
    patientId,
    codeHash: prepared.codeHash,
    issuedAt: ctx.now,
    expiresAt,
    issuedBy: ctx.actor.userId,
    ip: ctx.meta.ip,
    userAgent: ctx.meta.userAgent,
  });
  await recordSecurityEvent(ctx.tx, {
    userId: ctx.actor.userId,
    facility: ctx.actor.facility,
    eventType: 'PORTAL_CODE_ISSUED',
    severity: 'medium',
    description: 'Patient portal activation code issued',
    metadata: { kind: 'patient', patientId, via, expiresAt: expiresAt.toISOString(), needsCurrentPin },
    ipAddress: ctx.meta.ip,
    userAgent: ctx.meta.userAgent,
    timestamp: ctx.now,
  });
  return {
    activation: { code: formatActivationCode(prepared.code), expiresAt: expiresAt.toISOString(), needsCurrentPin },
    audit: {
      action: 'UPDATE',
      resourceType: 'PATIENT',
      resourceId: patientId,
      patientId,
      newValues: { portalActivation: { via, expiresAt: expiresAt.toISOString(), needsCurrentPin }, role: actorRoleAtTheTime(ctx.actor) },
      complianceFlags: { type: 'PORTAL_ACTIVATION' },
    },
  };
}

/**
 * POST /api/patients/{id}/portal-activation: a new code for an existing patient (first activation or PIN reset).
 * Limited per staff user (RATE_LIMIT_PORTAL_CODES_PER_HOUR, at the route); past ALERT_PORTAL_CODES_PER_HOUR in an
 * hour the issuer gets a PORTAL_CODE_VOLUME_ALERT in the privacy review (decision 031).
 */
export async function issuePortalActivation(
  scope: RequestScope<StaffActor>,
  patientId: number,
  alertLimits?: Config['alerts'],
): Promise<PortalActivation> {
  const prepared = await prepareActivationCode();
  const activation = await inAuditedTransaction(scope, async (ctx) => {
    await getPatient(ctx.tx, patientId); // 404 PATIENT_NOT_FOUND
    const { activation, audit } = await storeIssuedActivationCode(ctx, patientId, prepared, 'desk');
    return ctx.audited(activation, audit);
  });
  if (alertLimits) await notePortalCodeVolume(scope.db, alertLimits, scope.actor, scope.meta, scope.now);
  return activation;
}

const resetNotPending = (): AppError =>
  new AppError('PORTAL_RESET_NOT_PENDING', 'No live portal code waits for a reset confirmation for this patient');

/** GET /api/patients/{id}/portal-status: whether the portal is active and the live code's state (never the code). */
export async function portalStatusOf(scope: RequestScope<StaffActor>, patientId: number): Promise<PortalStatus> {
  await getPatient(scope.db, patientId); // 404 PATIENT_NOT_FOUND
  const row = await readLiveCode(scope.db, patientId, scope.now);
  const named = async (id: string | null) => (id ? { id, name: (await readStaffNames(scope.db, id))?.name ?? '' } : null);
  const live = row?.codeLive ? row : null;
  return {
    active: row?.pinSet ?? false,
    liveCode: live
      ? {
          issuedAt: live.codeIssuedAt?.toISOString() ?? '',
          expiresAt: live.codeExpiresAt?.toISOString() ?? '',
          issuedBy: await named(live.codeIssuedBy),
          needsCurrentPin: live.codeNeedsCurrentPin,
          resetConfirmedBy: await named(live.resetConfirmedBy),
          resetConfirmedAt: live.resetConfirmedAt?.toISOString() ?? null,
        }
      : null,
    canConfirmReset: Boolean(live?.codeNeedsCurrentPin && !live.resetConfirmedBy && live.codeIssuedBy !== scope.actor.userId),
  };
}

/**
 * POST /api/patients/{id}/portal-reset/confirm (two-person rule, decision 031): a second staff member (patients.create,
 * not the code's issuer: 403 PORTAL_RESET_OWN_CODE) confirms that the live code may reset the portal without the
 * patient's current PIN. 409 PORTAL_RESET_NOT_PENDING when no live code needs it. Audited (UPDATE PATIENT, flagged
 * PORTAL_RESET_CONFIRMED), so the patient's access history names the confirmer.
 */
export async function confirmPortalReset(scope: RequestScope<StaffActor>, patientId: number): Promise<PortalStatus> {
  await inAuditedTransaction(scope, async (ctx) => {
    await getPatient(ctx.tx, patientId); // 404 PATIENT_NOT_FOUND
    const row = await readLiveCode(ctx.tx, patientId, ctx.now, true);
    if (!row?.codeLive || !row.codeNeedsCurrentPin || row.resetConfirmedBy) throw resetNotPending();
    if (row.codeIssuedBy === ctx.actor.userId)
      throw new AppError('PORTAL_RESET_OWN_CODE', 'A second staff member must confirm a reset of a code you issued');
    await storeResetConfirmation(ctx.tx, patientId, ctx.actor.userId, ctx.now);
    await recordSecurityEvent(ctx.tx, {
      userId: ctx.actor.userId,
      facility: ctx.actor.facility,
      eventType: 'PORTAL_RESET_CONFIRMED',
      severity: 'medium',
      description: 'Patient portal reset without the current PIN confirmed by a second staff member',
      metadata: { kind: 'patient', patientId, issuedBy: row.codeIssuedBy },
      ipAddress: ctx.meta.ip,
      userAgent: ctx.meta.userAgent,
      timestamp: ctx.now,
    });
    return ctx.audited(null, {
      action: 'UPDATE',
      resourceType: 'PATIENT',
      resourceId: patientId,
      patientId,
      newValues: { portalReset: { confirmed: true, issuedBy: row.codeIssuedBy }, role: actorRoleAtTheTime(ctx.actor) },
      complianceFlags: { type: 'PORTAL_RESET_CONFIRMED' },
    });
  });
  return portalStatusOf(scope, patientId);
}

const activationFailed = (): AppError => new AppError('PATIENT_ACTIVATION_FAILED', PATIENT_ACTIVATION_FAILED_MESSAGE);
const currentPinRequired = (): AppError =>
  new AppError(
    'PORTAL_CURRENT_PIN_REQUIRED',
    'This portal already has a PIN: enter the current PIN, or ask the clinic for a reset confirmed by a second staff member',
  );

/** What a successful use of a code leaves for the caller: what it ended, and the row it was checked against. */
interface CodeUsed {
  use?: CodeUse;
  row?: PortalSignInRow;
  /** Whether the reset went ahead without the current PIN, on a second staff member's confirmation. */
  confirmedReset?: boolean;
}

/**
 * The activation-code proof: one verification against the live code's hash (or the dummy hash); on success the PIN
 * is set and the code cleared by one conditional update, which a concurrent use of the same code loses.
 */
function activationCodeProof(deps: AppDeps, input: PatientActivateInput, used: CodeUsed): PatientProof {
  const code = normalizeActivationCode(input.activationCode);
  let checkedHash: string | null = null;
  return {
    method: 'activation_code',
    async check(row, now) {
      const ok = await verifyOrDummy(row?.codeHash, code);
      if (!row?.codeHash) return row?.codeUsedAt ? 'code_already_used' : 'no_code';
      if (!ok) return 'wrong_code';
      if (!row.codeExpiresAt || row.codeExpiresAt.getTime() <= now.getTime()) return 'code_expired';
      // A code for a portal that already has a PIN (decision 031): the current PIN too, unless a second staff member
      // confirmed the reset.
      if (row.codeNeedsCurrentPin && !row.resetConfirmedBy) {
        if (!input.currentPin) return 'current_pin_required';
        if (!(await verifyOrDummy(row.pinHash, input.currentPin))) return 'wrong_current_pin';
      }
      checkedHash = row.codeHash;
      return null;
    },
    async commit(row, now) {
      if (!checkedHash) return 'no_code';
      const pinHash = await hashPassword(input.pin);
      const confirmedReset = Boolean(row.codeNeedsCurrentPin && row.resetConfirmedBy);
      const notice = confirmedReset ? await resetNoticeFor(deps, row, now) : null;
      const use = await useActivationCode(deps.db, { patientId: row.id, checkedCodeHash: checkedHash, pinHash, now, notice });
      if (!use) return 'code_already_used';
      Object.assign(used, { use, row, confirmedReset });
      return null;
    },
    // The code was right but the current PIN was missing or wrong: say so (whoever holds a live code may know).
    failed: (reason) => (reason === 'current_pin_required' || reason === 'wrong_current_pin' ? currentPinRequired() : activationFailed()),
  };
}

async function resetNoticeFor(deps: AppDeps, row: PortalSignInRow, now: Date): Promise<ResetNotice> {
  const name = async (id: string | null) => (id ? ((await readStaffNames(deps.db, id))?.name ?? '') : '');
  return { at: now.toISOString(), issuedBy: await name(row.codeIssuedBy), confirmedBy: await name(row.resetConfirmedBy) };
}

/**
 * POST /api/auth/patient-activate: NC number, date of birth, the code and a new PIN (and the current PIN for a portal
 * that already has one, unless the reset was confirmed by a second staff member). Throttled and recorded as a sign-in
 * (decision 004); the PIN is set (PORTAL_PIN_SET), the activation is written to the patient's access history with the
 * code's issuer, and the caller opens the portal session. An activation within ALERT_DESK_ACTIVATION_MINUTES of the
 * code, from the issuer's address or browser, is answered with `deskSuspect` (the issuer): the caller marks the new
 * session, and its first record read raises PORTAL_DESK_ACTIVATION_ALERT (decision 031).
 */
export async function activatePortal(deps: AppDeps, input: PatientActivateInput, meta: RequestMeta): Promise<VerifiedPatient> {
  const used: CodeUsed = {};
  const patient = await signInPatientWith(
    deps,
    { ncNumber: input.ncNumber, dateOfBirth: input.dateOfBirth },
    meta,
    activationCodeProof(deps, input, used),
  );
  const now = patient.attempt.now;
  const use = used.use ?? { hadPin: false, passkeysRemoved: 0, sessionsEnded: 0 };
  const row = used.row;
  const issuer = row?.codeIssuedBy ? await readStaffNames(deps.db, row.codeIssuedBy) : null;
  await recordSecurityEvent(deps.db, {
    eventType: 'PORTAL_PIN_SET',
    severity: use.hadPin ? 'medium' : 'low',
    description: use.hadPin
      ? 'Patient portal reset with an activation code: new PIN, every passkey and session ended'
      : 'Patient portal PIN set with an activation code',
    metadata: {
      kind: 'patient',
      patientId: patient.id,
      reset: use.hadPin,
      confirmedReset: used.confirmedReset ?? false,
      issuedBy: row?.codeIssuedBy ?? null,
      passkeysRemoved: use.passkeysRemoved,
      sessionsEnded: use.sessionsEnded,
    },
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: now,
  });
  // The patient's access history lists every activation with the name of the staff member who issued the code.
  await writeAudit(deps.db, {
    actor: { userId: `patient:${patient.id}`, userName: `Patient ${patient.id}`, facility: null },
    meta,
    action: 'UPDATE',
    resourceType: 'PATIENT',
    resourceId: patient.id,
    patientId: patient.id,
    newValues: {
      portalActivated: { reset: use.hadPin, confirmedReset: used.confirmedReset ?? false },
      issuedBy: { userId: row?.codeIssuedBy ?? null, name: issuer?.name ?? '', facility: issuer?.facility ?? null },
      role: issuer?.role ?? null,
    },
    complianceFlags: { type: 'PORTAL_ACTIVATED' },
  });
  const minutes = deps.config.alerts.deskActivationMinutes;
  const soon = row?.codeIssuedAt && now.getTime() - row.codeIssuedAt.getTime() <= minutes * 60_000;
  const sameDesk =
    row &&
    ((row.codeIssuedIp !== null && row.codeIssuedIp === meta.ip) ||
      (row.codeIssuedUserAgent !== null && row.codeIssuedUserAgent === meta.userAgent));
  return soon && sameDesk && row.codeIssuedBy ? { ...patient, deskSuspect: row.codeIssuedBy } : patient;
}

/** After a portal sign-in opened session `sid`: a suspected desk activation marks it (decision 031). */
export async function markDeskSuspect(deps: AppDeps, patient: VerifiedPatient, sid: string): Promise<void> {
  if (patient.deskSuspect) await markSuspectSession(deps.db, patient.id, sid, patient.deskSuspect);
}

/**
 * After the portal's record read (GET /api/patient-portal/me) in a session marked as a suspected desk activation by
 * `issuer` (the read took the mark off: records/own-record.repository.ts): the alert, once.
 */
export async function noteSuspectRead(deps: AppDeps, issuer: string, patientId: number, meta: RequestMeta): Promise<void> {
  await raiseDeskActivationAlert(deps.db, deps.config.alerts, issuer, patientId, meta);
}

/** GET /api/patient-portal/notices: the confirmed reset the patient has not dismissed yet. */
export async function portalNoticesOf(deps: AppDeps, patientId: number): Promise<PortalNotices> {
  return { reset: await readResetNotice(deps.db, patientId) };
}

/** POST /api/patient-portal/notices/dismiss. */
export const dismissPortalNotices = (deps: AppDeps, patientId: number): Promise<void> => clearResetNotice(deps.db, patientId);
