// Schedule versions an administrator loaded, and what a patient's status is computed from (decision 044).
import { desc, sql } from 'drizzle-orm';
import type { ImmunizationSchedule, ScheduleVersionRow } from '../../../contracts/immunization';
import type { Actor } from '../../context/actor';
import type { DbOrTx } from '../../db/client';
import { immunizationSchedules } from '../../db/schema';
import type { PatientScope } from '../access/patient-scope';
import { selectListsOf } from '../records/records.repository';
import type { VaccineDose } from './schedule-engine';

export interface StoredSchedule {
  id: number;
  schedule: ImmunizationSchedule;
}

/** The id of the newest loaded version, or null (then the shipped file is current). */
export async function newestScheduleId(db: DbOrTx): Promise<number | null> {
  const [row] = await db.select({ id: immunizationSchedules.id }).from(immunizationSchedules).orderBy(desc(immunizationSchedules.id)).limit(1);
  return row?.id ?? null;
}

export async function selectSchedule(db: DbOrTx, id: number): Promise<StoredSchedule | null> {
  const [row] = await db
    .select({ id: immunizationSchedules.id, schedule: immunizationSchedules.schedule })
    .from(immunizationSchedules)
    .where(sql`${immunizationSchedules.id} = ${id}`);
  return row ? { id: row.id, schedule: row.schedule as ImmunizationSchedule } : null;
}

/** Every loaded version, newest first (without their content). */
export async function selectScheduleVersions(db: DbOrTx): Promise<Omit<ScheduleVersionRow, 'current'>[]> {
  const rows = await db
    .select({
      id: immunizationSchedules.id,
      version: immunizationSchedules.version,
      title: immunizationSchedules.title,
      sha256: immunizationSchedules.sha256,
      loadedAt: immunizationSchedules.loadedAt,
      loadedBy: immunizationSchedules.loadedByName,
    })
    .from(immunizationSchedules)
    .orderBy(desc(immunizationSchedules.id));
  return rows.map((r) => ({ ...r, loadedAt: r.loadedAt.toISOString() }));
}

/** Stores a new version; null when the version name is taken. */
export async function insertSchedule(
  db: DbOrTx,
  schedule: ImmunizationSchedule,
  sha256: string,
  by: { userId: string; name: string; now: Date },
): Promise<{ id: number } | null> {
  const [row] = await db
    .insert(immunizationSchedules)
    .values({
      version: schedule.version,
      title: schedule.title,
      schedule,
      sha256,
      loadedAt: by.now,
      loadedBy: by.userId,
      loadedByName: by.name,
    })
    .onConflictDoNothing({ target: immunizationSchedules.version })
    .returning({ id: immunizationSchedules.id });
  return row ?? null;
}

/** The scope patient's vaccine rows as the schedule reads them and whether an active pregnancy is recorded (ICD-10 Z33-Z35, O). */
export async function selectStatusInputs<A extends Actor>(scope: PatientScope<A>): Promise<{ vaccines: VaccineDose[]; pregnant: boolean }> {
  const { vaccines, diagnoses } = await selectListsOf(scope, ['vaccines', 'diagnoses'] as const);
  const pregnant = diagnoses.some((d) => d.status === 'Active' && d.code !== null && /^(Z3[345]|O)/.test(d.code));
  return { vaccines: vaccines.map((v) => ({ id: v.id, vaccine: v.vaccine, code: v.code, codeSystem: v.codeSystem, date: v.date, dose: v.dose })), pregnant };
}
