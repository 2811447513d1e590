// A patient's fresh proof in the portal (issue 21 item 2, decision 031): adding a passkey needs the PIN entered in
// this session within the last PATIENT_PIN_FRESH_MINUTES. A sign-in with the PIN (or an activation, which sets it)
// records the proof for the new session; POST /api/patient-portal/reauth records it again. The proof lives in
// session_reauth (migration 0020), keyed by the session, so it ends with the session.
import { PATIENT_PIN_FRESH_MINUTES } from '../../../contracts/portal-login';
import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { readReauth, recordReauth } from './mfa.repository';

const MINUTE = 60_000;

export const patientPinRequired = (): AppError =>
  new AppError('REAUTH_REQUIRED', `Enter your PIN again (within the last ${PATIENT_PIN_FRESH_MINUTES} minutes) before adding a passkey`);

/** The session proved the patient's PIN now. */
export const recordPatientPinProof = (db: Db, sid: string, now: Date): Promise<void> => recordReauth(db, sid, now, null);

/** 403 REAUTH_REQUIRED unless this session proved the PIN within the last PATIENT_PIN_FRESH_MINUTES. */
export async function assertFreshPatientPin(db: Db, sid: string | null, now: Date): Promise<void> {
  const at = sid ? await readReauth(db, sid) : null;
  if (at === null || now.getTime() - at.getTime() > PATIENT_PIN_FRESH_MINUTES * MINUTE) throw patientPinRequired();
}
