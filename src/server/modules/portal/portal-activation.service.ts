// Portal activation (docs/decisions/016-patient-portal-second-factor.md): a clinic issues a one-time code (when a
// patient is added, or at a desk), the patient uses it once with NC number and date of birth to choose a PIN.
import { normalizeActivationCode, PATIENT_ACTIVATION_FAILED_MESSAGE } from '../../../contracts/portal-login';
import type { PatientActivateInput, PortalActivation } from '../../../contracts/portal';
import { actorRoleAtTheTime, type RequestMeta, type StaffActor } from '../../context/actor';
import { inAuditedTransaction, type ContextAuditEntry, type DataContext, type RequestScope } from '../../context/data-context';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { hashPassword } from '../../security/password';
import { recordSecurityEvent } from '../auth/auth.service';
import { getPatient } from '../patients/patients.service';
import { ACTIVATION_CODE_TTL_MS, formatActivationCode, newActivationCode } from './activation-code';
import { signInPatientWith, verifyOrDummy, type PatientProof, type VerifiedPatient } from './patient-login.service';
import { storeActivationCode, useActivationCode, type CodeUse } from './portal-credentials.repository';

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
  await storeActivationCode(ctx.tx, { patientId, codeHash: prepared.codeHash, issuedAt: ctx.now, expiresAt, issuedBy: ctx.actor.userId });
  await recordSecurityEvent(ctx.tx, {
    userId: ctx.actor.userId,
    facility: ctx.actor.facility,
    eventType: 'PORTAL_CODE_ISSUED',
    severity: 'medium',
    description: 'Patient portal activation code issued',
    metadata: { kind: 'patient', patientId, via, expiresAt: expiresAt.toISOString() },
    ipAddress: ctx.meta.ip,
    userAgent: ctx.meta.userAgent,
    timestamp: ctx.now,
  });
  return {
    activation: { code: formatActivationCode(prepared.code), expiresAt: expiresAt.toISOString() },
    audit: {
      action: 'UPDATE',
      resourceType: 'PATIENT',
      resourceId: patientId,
      patientId,
      newValues: { portalActivation: { via, expiresAt: expiresAt.toISOString() }, role: actorRoleAtTheTime(ctx.actor) },
      complianceFlags: { type: 'PORTAL_ACTIVATION' },
    },
  };
}

/** POST /api/patients/{id}/portal-activation: a new code for an existing patient (first activation or PIN reset). */
export async function issuePortalActivation(scope: RequestScope<StaffActor>, patientId: number): Promise<PortalActivation> {
  const prepared = await prepareActivationCode();
  return inAuditedTransaction(scope, async (ctx) => {
    await getPatient(ctx.tx, patientId); // 404 PATIENT_NOT_FOUND
    const { activation, audit } = await storeIssuedActivationCode(ctx, patientId, prepared, 'desk');
    return ctx.audited(activation, audit);
  });
}

const activationFailed = (): AppError => new AppError('PATIENT_ACTIVATION_FAILED', PATIENT_ACTIVATION_FAILED_MESSAGE);

/**
 * The activation-code proof: one verification against the live code's hash (or the dummy hash); on success the PIN
 * is set and the code cleared by one conditional update, which a concurrent use of the same code loses.
 */
function activationCodeProof(deps: AppDeps, input: PatientActivateInput, used: { use?: CodeUse }): PatientProof {
  const code = normalizeActivationCode(input.activationCode);
  let checkedHash: string | null = null;
  return {
    method: 'activation_code',
    async check(row, now) {
      const ok = await verifyOrDummy(row?.codeHash, code);
      if (!row?.codeHash) return row?.codeUsedAt ? 'code_already_used' : 'no_code';
      if (!ok) return 'wrong_code';
      if (!row.codeExpiresAt || row.codeExpiresAt.getTime() <= now.getTime()) return 'code_expired';
      checkedHash = row.codeHash;
      return null;
    },
    async commit(row, now) {
      if (!checkedHash) return 'no_code';
      const pinHash = await hashPassword(input.pin);
      const use = await useActivationCode(deps.db, { patientId: row.id, checkedCodeHash: checkedHash, pinHash, now });
      if (!use) return 'code_already_used';
      used.use = use;
      return null;
    },
    failed: activationFailed,
  };
}

/**
 * POST /api/auth/patient-activate: NC number, date of birth, the code and a new PIN. Throttled and recorded as a
 * sign-in (decision 004); the PIN is set (PORTAL_PIN_SET) and the caller opens the portal session.
 */
export async function activatePortal(deps: AppDeps, input: PatientActivateInput, meta: RequestMeta): Promise<VerifiedPatient> {
  const used: { use?: CodeUse } = {};
  const patient = await signInPatientWith(
    deps,
    { ncNumber: input.ncNumber, dateOfBirth: input.dateOfBirth },
    meta,
    activationCodeProof(deps, input, used),
  );
  const use = used.use ?? { hadPin: false, passkeysRemoved: 0, sessionsEnded: 0 };
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
      passkeysRemoved: use.passkeysRemoved,
      sessionsEnded: use.sessionsEnded,
    },
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: patient.attempt.now,
  });
  return patient;
}
