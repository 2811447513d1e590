// The defaulter list's index kept current (decision 044): a patient's outstanding doses of the tracked (childhood)
// series are rewritten in the same transaction as every change of their vaccines (the vaccines kind's afterChange
// hook), and everyone's when a new schedule is loaded. A child belongs to the facility of their last vaccine visit;
// a child with no vaccine row belongs to no facility's list (noted in the decision).
import { todayIso } from '../../../contracts/calendar';
import type { ImmunizationSchedule } from '../../../contracts/immunization';
import type { DbOrTx } from '../../db/client';
import { replaceDueRows, selectDuePatients, selectVaccinatedPatientIds, type DuePatient, type DueRow } from './immunization-due.repository';
import { addAge, placeDoses } from './schedule-engine';
import { currentScheduleOrNull } from './schedule.service';

/** The outstanding doses a patient has in the index: none once every one is past its latest age on `today`. */
export function dueRowsOf(schedule: ImmunizationSchedule, patient: DuePatient, today: string): DueRow[] {
  const last = patient.vaccines.at(-1);
  if (!last) return [];
  const tracked = new Set(schedule.series.filter((s) => s.tracked).map((s) => s.id));
  const placed = placeDoses(schedule, { dateOfBirth: patient.dateOfBirth, sex: patient.sex, pregnant: false }, patient.vaccines);
  return placed.outstanding.flatMap(({ chain }) =>
    chain
      .filter((o) => tracked.has(o.dose.series) && (o.missedFrom === null || o.missedFrom > today))
      .map((o) => {
        const overdue = addAge(o.due, schedule.overdueAfter);
        return {
          patientId: patient.patientId,
          dose: o.dose.id,
          name: o.dose.name,
          facility: last.facility,
          dueDate: o.due,
          // A dose after missable ones counts only once they are missed.
          overdueFrom: o.afterMissedFrom !== null && o.afterMissedFrom > overdue ? o.afterMissedFrom : overdue,
          missedFrom: o.missedFrom,
          lastVisit: last.date,
        };
      }),
  );
}

/** Rewrites the index rows of these patients with the current schedule (in the caller's transaction). */
export async function refreshImmunizationDue(db: DbOrTx, patientIds: readonly number[], now: Date = new Date()): Promise<void> {
  const schedule = await currentScheduleOrNull(db);
  // Without a schedule a vaccine is still recorded; the index is rewritten whole when a version is loaded.
  if (schedule) await refreshWith(db, schedule, patientIds, todayIso(now));
}

async function refreshWith(db: DbOrTx, schedule: ImmunizationSchedule, patientIds: readonly number[], today: string): Promise<void> {
  const patients = await selectDuePatients(db, patientIds);
  await replaceDueRows(
    db,
    patientIds,
    patients.flatMap((p) => dueRowsOf(schedule, p, today)),
  );
}

/** Rewrites everyone's rows with `schedule`, in batches of patients (minutes at national scale: decision 044). */
export async function refreshAllImmunizationDue(
  db: DbOrTx,
  schedule: ImmunizationSchedule,
  now: Date = new Date(),
  batch = 2000,
): Promise<void> {
  const today = todayIso(now);
  let after = 0;
  for (;;) {
    const ids = await selectVaccinatedPatientIds(db, after, batch);
    if (ids.length === 0) return;
    await refreshWith(db, schedule, ids, today);
    after = ids.at(-1)!;
  }
}
