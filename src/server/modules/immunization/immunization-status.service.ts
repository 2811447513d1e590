// GET /api/patients/{id}/immunization-status and the portal's own (issue 25 item 2, decision 044): the current
// schedule applied to the patient's vaccine rows on today's date, read in one audited data context after the grant
// check, like a record open (VIEW PATIENT naming the view and what was returned). Nothing without a live grant.
import { todayIso } from '../../../contracts/calendar';
import type { ImmunizationSchedule, ImmunizationStatus } from '../../../contracts/immunization';
import type { RecordPatient } from '../../../contracts/access';
import type { Actor, PatientActor, StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { openOwnRecordWithDetails, openPatientRecordWithDetails, type PatientScope } from '../access/patient-scope';
import { selectStatusInputs } from './immunization-status.repository';
import { immunizationStatusOf } from './schedule-engine';
import { currentSchedule } from './schedule.service';

async function statusOf<A extends Actor>(
  scope: PatientScope<A>,
  patient: RecordPatient,
  schedule: ImmunizationSchedule,
  now: Date,
): Promise<ImmunizationStatus> {
  const { vaccines, pregnant } = await selectStatusInputs(scope);
  return immunizationStatusOf(schedule, { dateOfBirth: patient.dateOfBirth, sex: patient.sex, pregnant }, vaccines, todayIso(now));
}

const returned = (s: ImmunizationStatus) => ({
  scheduleVersion: s.scheduleVersion,
  returned: { doses: s.doses.length, notMatched: s.notMatched.length, notCounted: s.notCounted.length },
});

/** A staff member's read: 404 unknown patient, 403 without a live grant (nothing read, no audit row). */
export async function readImmunizationStatus(c: RequestScope<StaffActor>, patientId: number): Promise<ImmunizationStatus> {
  const schedule = await currentSchedule(c.db);
  return inAuditedTransaction(c, async (ctx) => {
    const { scope, patient } = await openPatientRecordWithDetails(ctx, patientId);
    const status = await statusOf(scope, patient, schedule, c.now);
    return ctx.audited(status, {
      action: 'VIEW',
      resourceType: 'PATIENT',
      resourceId: patientId,
      patientId,
      newValues: { view: 'IMMUNIZATION_STATUS', ...returned(status) },
    });
  });
}

/** The signed-in patient's own status (the portal); audited as their own VIEW via the portal. */
export async function readOwnImmunizationStatus(c: RequestScope<PatientActor>): Promise<ImmunizationStatus> {
  const schedule = await currentSchedule(c.db);
  return inAuditedTransaction(c, async (ctx) => {
    const { scope, patient } = await openOwnRecordWithDetails(ctx);
    const status = await statusOf(scope, patient, schedule, c.now);
    return ctx.audited(status, {
      action: 'VIEW',
      resourceType: 'PATIENT',
      resourceId: scope.patientId,
      patientId: scope.patientId,
      newValues: { via: 'patient-portal', view: 'IMMUNIZATION_STATUS', ...returned(status) },
    });
  });
}
