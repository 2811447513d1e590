// Schedule versions an administrator loaded (decision 044): the newest is current; every one is kept.
import { desc, sql } from 'drizzle-orm';
import type { ImmunizationSchedule, ScheduleVersionRow } from '../../../contracts/immunization';
import type { DbOrTx } from '../../db/client';
import { immunizationSchedules } from '../../db/schema';

export interface StoredSchedule {
  id: number;
  schedule: ImmunizationSchedule;
}

/** The id of the newest loaded version, or null (then the shipped file is current). */
export async function newestScheduleId(db: DbOrTx): Promise<number | null> {
  const [row] = await db
    .select({ id: immunizationSchedules.id })
    .from(immunizationSchedules)
    .orderBy(desc(immunizationSchedules.id))
    .limit(1);
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
