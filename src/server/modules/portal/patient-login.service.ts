// Patient sign-in (SPEC §2, §5, §7; DESIGN.md §5; decisions 004, 005, 016): NC number and date of birth name the
// patient, and a proof that staff cannot read shows it is them: the PIN, or on the first sign-in the activation code
// (portal-activation.service.ts); a passkey can be a further proof. Every proof goes through signInPatientWith: the
// same throttle as the staff sign-in keyed on the NC number and the address, one answer for every wrong part, a
// security event for every attempt, and one expensive check per attempt whether or not the patient exists.
import type { PatientLoginInput } from '../../../contracts/portal';
import { PATIENT_LOGIN_FAILED_MESSAGE, PORTAL_FROM_STAFF_SESSION_MESSAGE } from '../../../contracts/portal-login';
import type { Actor, RequestMeta } from '../../context/actor';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { verifyPassword } from '../../security/password';
import type { AuthenticationResponse } from '../../../contracts/passkeys';
import { recordSecurityEvent, warmDummyHash } from '../auth/auth.service';
import { checkAssertion, findPatientPasskey, passkeyFailed, refuseNonPatientPasskey, type CredentialRow } from '../auth/passkeys.service';
import {
  recordSignInFailure,
  recordSignInSuccess,
  refuseIfThrottled,
  serializeSignIn,
  type SignInAttempt,
} from '../auth/sign-in-throttle.service';
import { notePortalSpray, refuseIfPortalFailuresExceeded } from './sign-in-spray.service';
import { findPortalSignIn, readPatientNcNumberOf, type PortalSignInRow } from './portal-credentials.repository';

export interface VerifiedPatient {
  id: number;
  firstName: string;
  attempt: SignInAttempt;
  method: string;
  /** An activation by the desk that issued the code, it seems (decision 031): that staff user's id. */
  deskSuspect?: string;
}

/** The one 401 for an unknown NC number, a wrong date of birth, a wrong PIN and a portal never activated. */
export const patientLoginFailed = (): AppError => new AppError('PATIENT_LOGIN_FAILED', PATIENT_LOGIN_FAILED_MESSAGE);

/**
 * How a patient proves a sign-in is theirs. `check` runs on every attempt, also when the number is unknown (row
 * null), and must cost the same either way (verify against the dummy hash); it answers the failure reason recorded
 * for auditors, or null. `commit` runs once the number, date and proof all match; it may still refuse (a code used
 * by a concurrent attempt). `failed` is the one error every refusal answers.
 */
export interface PatientProof {
  method: string;
  check(row: PortalSignInRow | null, now: Date): Promise<string | null>;
  commit?(row: PortalSignInRow, now: Date): Promise<string | null>;
  /** The one error every refusal answers; the reason lets a proof answer more (decision 031's current PIN). */
  failed(reason: string | null): AppError;
}

/** Who the sign-in names: the NC number, and the date of birth unless the proof itself names the person. */
export interface PatientClaim {
  ncNumber: string;
  dateOfBirth?: string;
}

/** Verifies one argon2id hash, or the dummy hash when there is nothing to check, so timing tells nothing. */
export async function verifyOrDummy(hash: string | null | undefined, secret: string): Promise<boolean> {
  const ok = await verifyPassword(hash ?? (await warmDummyHash()), secret);
  return Boolean(hash) && ok;
}

/** Throws 429 (throttled) or the proof's one 401, recording the attempt either way; returns the patient when all match. */
export function signInPatientWith(deps: AppDeps, claim: PatientClaim, meta: RequestMeta, proof: PatientProof): Promise<VerifiedPatient> {
  return serializeSignIn(claim.ncNumber, meta, () => checkPatientSignIn(deps, claim, meta, proof));
}

async function checkPatientSignIn(
  { db, config }: AppDeps,
  claim: PatientClaim,
  meta: RequestMeta,
  proof: PatientProof,
): Promise<VerifiedPatient> {
  const attempt: SignInAttempt = { subject: claim.ncNumber, meta, now: config.now() };
  await refuseIfThrottled(db, attempt, { kind: 'patient' });
  await refuseIfPortalFailuresExceeded(db, config, attempt, proof.method);
  const row = await findPortalSignIn(db, claim.ncNumber);
  const proofFailure = await proof.check(row, attempt.now);
  let failure: string | null;
  if (!row) failure = 'unknown_nc_number';
  else if (claim.dateOfBirth !== undefined && !row.datesOfBirth.includes(claim.dateOfBirth)) failure = 'wrong_date_of_birth';
  else failure = proofFailure ?? (proof.commit ? await proof.commit(row, attempt.now) : null);
  if (!row || failure) {
    await recordSignInFailure(db, attempt, { kind: 'patient', method: proof.method, reason: failure, patientId: row?.id ?? null });
    await notePortalSpray(db, config, attempt);
    throw proof.failed(failure);
  }
  return { id: row.id, firstName: row.firstName, attempt, method: proof.method };
}

/** The PIN proof (decision 016): a patient who never activated fails like a wrong PIN, after the same verification. */
export function pinProof(pin: string, failed: () => AppError = patientLoginFailed): PatientProof {
  return {
    method: 'pin',
    async check(row) {
      const ok = await verifyOrDummy(row?.pinHash, pin);
      if (!row?.pinHash) return 'not_activated';
      return ok ? null : 'wrong_pin';
    },
    failed,
  };
}

/** POST /api/auth/patient-login: NC number, date of birth and PIN. */
export function verifyPatientLogin(deps: AppDeps, input: PatientLoginInput, meta: RequestMeta): Promise<VerifiedPatient> {
  return signInPatientWith(deps, { ncNumber: input.ncNumber, dateOfBirth: input.dateOfBirth }, meta, pinProof(input.pin));
}

/**
 * POST /api/patient-portal/reauth (issue 21 item 2): the signed-in patient's PIN again, checked like a sign-in (the
 * same throttle on the NC number, a LOGIN_FAILURE with method 'pin_reauth' when wrong, which counts to the lockout);
 * 401 PORTAL_PIN_INCORRECT when wrong. The caller records the proof for the session.
 */
export async function confirmPatientPin(deps: AppDeps, patientId: number, pin: string, meta: RequestMeta): Promise<boolean> {
  const ncNumber = await readPatientNcNumberOf(deps.db, patientId);
  if (ncNumber === null) return false;
  const proof = { ...pinProof(pin, () => new AppError('PORTAL_PIN_INCORRECT', 'The PIN is not correct')), method: 'pin_reauth' };
  const patient = await signInPatientWith(deps, { ncNumber }, meta, proof);
  await recordSecurityEvent(deps.db, {
    eventType: 'REAUTH_SUCCESS',
    severity: 'low',
    description: 'Patient confirmed the portal PIN again',
    metadata: { kind: 'patient', patientId, factor: 'pin' },
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: patient.attempt.now,
  });
  return patient.id === patientId;
}

/**
 * The passkey proof (decision 026): the assertion of the patient's own passkey, checked against a challenge of the
 * signed-out sign-in (used once). The claim carries the NC number the passkey names and no date of birth.
 */
function passkeyProof(deps: AppDeps, credential: CredentialRow, response: AuthenticationResponse): PatientProof {
  return {
    method: 'passkey',
    async check(row, now) {
      if (!row || row.id !== credential.patientId) return 'unknown_credential';
      return (await checkAssertion(deps, credential, response, { purpose: 'sign_in', kind: 'patient' }, now)).reason;
    },
    failed: passkeyFailed,
  };
}

/** POST /api/auth/patient-passkey-login: a discoverable passkey names the patient; no NC number or date of birth typed. */
export async function verifyPatientPasskeyLogin(
  deps: AppDeps,
  response: AuthenticationResponse,
  meta: RequestMeta,
): Promise<VerifiedPatient> {
  const found = await findPatientPasskey(deps.db, response);
  if (!found) return refuseNonPatientPasskey(deps, response, meta);
  return signInPatientWith(deps, { ncNumber: found.ncNumber }, meta, passkeyProof(deps, found.credential, response));
}

/** After the patient session is open: the LOGIN_SUCCESS event (which also clears earlier failures for the number). */
export async function completePatientLogin({ db }: AppDeps, patient: VerifiedPatient): Promise<void> {
  await recordSignInSuccess(db, patient.attempt, 'Patient signed in', { kind: 'patient', method: patient.method, patientId: patient.id });
}

/**
 * Issue 10 item 1: a portal sign-in from a browser that holds a live staff session is refused (403) and recorded as a
 * security event naming the staff user, so staff who read NC numbers in search results cannot try them from their desk.
 */
export async function refusePortalSignInFromStaffSession(
  { db, config }: AppDeps,
  actor: Actor | null,
  /** The NC number typed; null for a passkey sign-in (the passkey names the patient). */
  ncNumber: string | null,
  meta: RequestMeta,
): Promise<void> {
  if (actor?.kind !== 'staff') return;
  await recordSecurityEvent(db, {
    userId: actor.userId,
    facility: actor.facility,
    eventType: 'PORTAL_LOGIN_FROM_STAFF_SESSION',
    severity: 'high',
    description: 'Patient portal sign-in refused: the browser holds a staff session',
    metadata: { kind: 'patient', ncNumber, ...(ncNumber === null ? { method: 'passkey' } : {}), reason: 'staff_session' },
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: config.now(),
  });
  throw new AppError('PORTAL_FROM_STAFF_SESSION', PORTAL_FROM_STAFF_SESSION_MESSAGE);
}
