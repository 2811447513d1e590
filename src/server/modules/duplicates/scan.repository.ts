// The registry-wide run's checkpoint (duplicate_scans, decision 046): the newest row is the current run. A worker owns
// a running run while its heartbeat is fresh; each chunk locks the row, so a chunk and its checkpoint commit together.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rows } from '../patients/search.repository';

export interface ScanRow {
  id: number;
  status: 'running' | 'paused' | 'done';
  startedAt: Date;
  finishedAt: Date | null;
  heartbeatAt: Date;
  owner: string | null;
  lastPatientId: number;
  maxPatientId: number;
  total: number;
  done: number;
  compared: number;
  pairs: number;
  seconds: number;
}

const COLUMNS = sql`id, status, started_at AS "startedAt", finished_at AS "finishedAt", heartbeat_at AS "heartbeatAt", owner,
  last_patient_id AS "lastPatientId", max_patient_id AS "maxPatientId", total, done, compared::float8 AS compared, pairs, seconds`;

const one = async (db: DbOrTx, query: ReturnType<typeof sql>) => (await rows<ScanRow>(db, query))[0] ?? null;

export const latestScan = (db: DbOrTx) => one(db, sql`SELECT ${COLUMNS} FROM duplicate_scans ORDER BY id DESC LIMIT 1`);

/** A new run over every patient there is now (ids up to the highest), owned by `owner`. */
export const createScan = (db: DbOrTx, owner: string, by: string | null, now: Date) =>
  one(
    db,
    sql`INSERT INTO duplicate_scans (status, started_at, started_by, heartbeat_at, owner, max_patient_id, total)
        SELECT 'running', ${now}, ${by}, ${now}, ${owner}, coalesce(max(id), 0), count(*)::int FROM patients
        RETURNING ${COLUMNS}`,
  );

/** Takes over a paused run, or a running one whose owner stopped renewing its heartbeat before `staleBefore`. */
export const claimScan = (db: DbOrTx, id: number, owner: string, now: Date, staleBefore: Date) =>
  one(
    db,
    sql`UPDATE duplicate_scans SET status = 'running', owner = ${owner}, heartbeat_at = ${now}
         WHERE id = ${id} AND (status = 'paused' OR (status = 'running' AND (owner = ${owner} OR heartbeat_at < ${staleBefore})))
        RETURNING ${COLUMNS}`,
  );

/** The run's row locked for one chunk, if `owner` still owns it. */
export const lockOwnedScan = (db: DbOrTx, id: number, owner: string) =>
  one(db, sql`SELECT ${COLUMNS} FROM duplicate_scans WHERE id = ${id} AND owner = ${owner} AND status = 'running' FOR UPDATE`);

export async function advanceScan(
  db: DbOrTx,
  id: number,
  step: { lastPatientId: number; done: number; compared: number; pairs: number; seconds: number; now: Date },
): Promise<void> {
  await db.execute(
    sql`UPDATE duplicate_scans SET last_patient_id = ${step.lastPatientId}, done = done + ${step.done}, compared = compared + ${step.compared},
               pairs = pairs + ${step.pairs}, seconds = seconds + ${step.seconds}, heartbeat_at = ${step.now}
         WHERE id = ${id}`,
  );
}

export async function endScan(db: DbOrTx, id: number, owner: string, status: 'paused' | 'done', now: Date): Promise<void> {
  await db.execute(
    sql`UPDATE duplicate_scans SET status = ${status}, owner = NULL, heartbeat_at = ${now},
               finished_at = ${status === 'done' ? now : null}
         WHERE id = ${id} AND owner = ${owner}`,
  );
}
