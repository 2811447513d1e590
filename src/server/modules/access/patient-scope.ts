// The one way into a patient's record (docs/decisions/009-data-context.md): a PatientScope is a data context
// for one patient whose live access grant (DESIGN.md §4) was checked inside that context's transaction, or, for
// the patient portal, the signed-in patient's own record (the patient id comes from the session, never a request).
// Repositories that read or change a patient's record take a PatientScope, so a patient-scoped query without
// the grant check does not compile; only this file makes one.
import type { RecordPatient } from '../../../contracts/access';
import type { Actor, PatientActor, StaffActor } from '../../context/actor';
import type { DataContext } from '../../context/data-context';
import { findPatient } from './access.repository';
import { assertGrantNowOrAt, assertLiveGrant, patientWithLiveGrant } from './access.service';

declare const grantChecked: unique symbol;

export interface PatientScope<A extends Actor = StaffActor> extends DataContext<A> {
  /** The patient this user holds a live grant for (checked in this transaction), or the signed-in patient. */
  readonly patientId: number;
  readonly [grantChecked]: true;
}

const scopeOf = <A extends Actor>(ctx: DataContext<A>, patientId: number): PatientScope<A> => ({ ...ctx, patientId }) as PatientScope<A>;

/**
 * 403 without a live grant, 404 for an unknown patient; otherwise the scope of this patient's record. A cached actor
 * on the context (the scope's gate) is confirmed in the same statement (decision 028; UnconfirmedActorError when it
 * was not).
 */
export async function openPatientRecord(ctx: DataContext<StaffActor>, patientId: number): Promise<PatientScope> {
  await assertLiveGrant(ctx.tx, ctx.actor, patientId, ctx.now, ctx.check ?? undefined);
  return scopeOf(ctx, patientId);
}

/**
 * Offline clinic mode (decision 061): the scope of a patient's record for a write a device made offline, when this
 * user holds a live grant now or held one whose window met `window` (the device's time, give or take the clock skew);
 * 403 OFFLINE_NO_GRANT otherwise, 404 for an unknown patient, 409 PATIENT_JOINED for a joined-away one.
 */
export async function openPatientRecordAsOf(
  ctx: DataContext<StaffActor>,
  patientId: number,
  window: { from: Date; to: Date },
): Promise<PatientScope> {
  await assertGrantNowOrAt(ctx.tx, ctx.actor, patientId, ctx.now, window);
  return scopeOf(ctx, patientId);
}

/** Like openPatientRecord, also returning the patient's demographics (one query). */
export async function openPatientRecordWithDetails(
  ctx: DataContext<StaffActor>,
  patientId: number,
): Promise<{ scope: PatientScope; patient: RecordPatient }> {
  const patient = await patientWithLiveGrant(ctx.tx, ctx.actor, patientId, ctx.now);
  return { scope: scopeOf(ctx, patientId), patient };
}

/** The signed-in patient was removed since sign-in: the portal ends the session (nothing is read or recorded). */
export class PatientRemoved extends Error {
  constructor() {
    super('The signed-in patient no longer exists');
  }
}

/** The signed-in patient's own record with their demographics; throws PatientRemoved when the patient no longer exists. */
export async function openOwnRecordWithDetails(
  ctx: DataContext<PatientActor>,
): Promise<{ scope: PatientScope<PatientActor>; patient: RecordPatient }> {
  const patient = await findPatient(ctx.tx, ctx.actor.patientId);
  if (!patient) throw new PatientRemoved();
  return { scope: scopeOf(ctx, ctx.actor.patientId), patient };
}

/** The signed-in patient's own record; throws PatientRemoved when the patient no longer exists. */
export async function openOwnRecord(ctx: DataContext<PatientActor>): Promise<PatientScope<PatientActor>> {
  return (await openOwnRecordWithDetails(ctx)).scope;
}
