// The one way into a patient's record (docs/decisions/009-data-context.md): a PatientScope is a data context
// for one patient whose live access grant (DESIGN.md §4) was checked inside that context's transaction.
// Repositories that read or change a patient's record take a PatientScope, so a patient-scoped query without
// the grant check does not compile; only this file makes one.
import type { RecordPatient } from '../../../contracts/access';
import type { StaffActor } from '../../context/actor';
import type { DataContext } from '../../context/data-context';
import { assertLiveGrant, patientWithLiveGrant } from './access.service';

declare const grantChecked: unique symbol;

export interface PatientScope extends DataContext<StaffActor> {
  /** The patient this user holds a live grant for (checked in this transaction). */
  readonly patientId: number;
  readonly [grantChecked]: true;
}

const scopeOf = (ctx: DataContext<StaffActor>, patientId: number): PatientScope => ({ ...ctx, patientId }) as PatientScope;

/** 403 without a live grant, 404 for an unknown patient; otherwise the scope of this patient's record. */
export async function openPatientRecord(ctx: DataContext<StaffActor>, patientId: number): Promise<PatientScope> {
  await assertLiveGrant(ctx.tx, ctx.actor, patientId, ctx.now);
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
