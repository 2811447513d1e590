// Patient sign-in with NC number and date of birth (SPEC §2, §5, §7; DESIGN.md §5). The same throttle as the staff
// sign-in, keyed on the NC number and on the address; every attempt is a security event; one answer for an unknown
// number and a wrong date of birth.
import { PATIENT_LOGIN_FAILED_MESSAGE, type PatientLoginInput } from '../../../contracts/portal';
import type { RequestMeta } from '../../context/actor';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import {
  recordSignInFailure,
  recordSignInSuccess,
  refuseIfThrottled,
  serializeSignIn,
  type SignInAttempt,
} from '../auth/sign-in-throttle.service';
import { findPatientByNcNumber } from './portal.repository';

export interface VerifiedPatient {
  id: number;
  firstName: string;
  attempt: SignInAttempt;
}

/** The one 401 for an unknown NC number and a wrong date of birth: same status, same body. */
export const patientLoginFailed = (): AppError => new AppError('PATIENT_LOGIN_FAILED', PATIENT_LOGIN_FAILED_MESSAGE);

/** Throws 429 (throttled) or the one 401, recording the attempt either way; returns the patient when both match. */
export function verifyPatientLogin(deps: AppDeps, input: PatientLoginInput, meta: RequestMeta): Promise<VerifiedPatient> {
  return serializeSignIn(input.ncNumber, meta, () => checkPatientLogin(deps, input, meta));
}

async function checkPatientLogin({ db, config }: AppDeps, input: PatientLoginInput, meta: RequestMeta): Promise<VerifiedPatient> {
  const attempt: SignInAttempt = { subject: input.ncNumber, meta, now: config.now() };
  await refuseIfThrottled(db, attempt, { kind: 'patient' });
  const patient = await findPatientByNcNumber(db, input.ncNumber);
  let failure: string | null = null;
  if (!patient) failure = 'unknown_nc_number';
  else if (patient.dateOfBirth === null || patient.dateOfBirth !== input.dateOfBirth) failure = 'wrong_date_of_birth';
  if (!patient || failure) {
    await recordSignInFailure(db, attempt, { kind: 'patient', reason: failure, patientId: patient?.id ?? null });
    throw patientLoginFailed();
  }
  return { id: patient.id, firstName: patient.firstName, attempt };
}

/** After the patient session is open: the LOGIN_SUCCESS event (which also clears earlier failures for the number). */
export async function completePatientLogin({ db }: AppDeps, patient: VerifiedPatient): Promise<void> {
  await recordSignInSuccess(db, patient.attempt, 'Patient signed in', { kind: 'patient', patientId: patient.id });
}
