// Which immunization schedule is current (decision 044): the newest version an administrator loaded, else the
// shipped file; and loading a new version (validated whole, audited, every earlier version kept). Each worker keeps
// the current version in memory and asks the database for the newest id on each use, so a load on one worker is
// seen by every other at their next request.
import type { ImmunizationSchedule, ScheduleVersionRow } from '../../../contracts/immunization';
import { staffDisplayName, type StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { DbOrTx } from '../../db/client';
import { AppError, validationFailed } from '../../errors/app-error';
import { newestScheduleId, insertSchedule, selectSchedule, selectScheduleVersions } from './schedule.repository';
import { checkSchedule, shippedSchedule } from './schedule-file';

let cached: { id: number; schedule: ImmunizationSchedule } | null = null;

export const scheduleUnavailable = (): AppError =>
  new AppError('IMMUNIZATION_SCHEDULE_UNAVAILABLE', 'The immunization schedule file is missing or malformed and no version was loaded');

/** The current schedule; 503 IMMUNIZATION_SCHEDULE_UNAVAILABLE when none was loaded and the shipped file is broken. */
export async function currentSchedule(db: DbOrTx): Promise<ImmunizationSchedule> {
  const id = await newestScheduleId(db);
  if (id === null) {
    const shipped = shippedSchedule();
    if (!shipped.ok) throw scheduleUnavailable();
    return shipped.schedule;
  }
  if (cached?.id !== id) {
    const stored = await selectSchedule(db, id);
    if (!stored) throw scheduleUnavailable();
    cached = stored;
  }
  return cached.schedule;
}

/** The current schedule, or null when it is unavailable. */
export async function currentScheduleOrNull(db: DbOrTx): Promise<ImmunizationSchedule | null> {
  try {
    return await currentSchedule(db);
  } catch (err) {
    if (err instanceof AppError && err.code === 'IMMUNIZATION_SCHEDULE_UNAVAILABLE') return null;
    throw err;
  }
}

/** GET /api/immunization-schedules: every loaded version, newest first, and the shipped file's (id 0). */
export async function listScheduleVersions(db: DbOrTx): Promise<ScheduleVersionRow[]> {
  const loaded = await selectScheduleVersions(db);
  const shipped = shippedSchedule();
  const file: ScheduleVersionRow[] = shipped.ok
    ? [
        {
          id: 0,
          version: shipped.schedule.version,
          title: shipped.schedule.title,
          sha256: shipped.sha256,
          loadedAt: null,
          loadedBy: null,
          current: false,
        },
      ]
    : [];
  return [...loaded, ...file].map((v, i) => ({ ...v, current: i === 0 }));
}

/**
 * POST /api/immunization-schedules: checks the version whole (400 VALIDATION_FAILED with every issue), stores it as
 * the current one (409 CONFLICT for a version name already loaded) with an audited CREATE, then rewrites the defaulter
 * index with it (`afterLoad`).
 */
export async function loadSchedule(
  c: RequestScope<StaffActor>,
  body: unknown,
  afterLoad: (schedule: ImmunizationSchedule) => Promise<void>,
): Promise<ScheduleVersionRow> {
  const check = checkSchedule(body);
  if (!check.ok) throw validationFailed(check.issues);
  const { schedule, sha256 } = check;
  const stored = await inAuditedTransaction(c, async (ctx) => {
    const row = await insertSchedule(ctx.tx, schedule, sha256, { userId: c.actor.userId, name: staffDisplayName(c.actor), now: c.now });
    if (!row)
      throw new AppError('CONFLICT', `Schedule version ${schedule.version} is already loaded`, { details: { version: schedule.version } });
    return ctx.audited(row, {
      action: 'CREATE',
      resourceType: 'IMMUNIZATION_SCHEDULE',
      resourceId: row.id,
      newValues: { version: schedule.version, sha256, doses: schedule.doses.length },
    });
  });
  await afterLoad(schedule);
  return {
    id: stored.id,
    version: schedule.version,
    title: schedule.title,
    sha256,
    loadedAt: c.now.toISOString(),
    loadedBy: staffDisplayName(c.actor),
    current: true,
  };
}
