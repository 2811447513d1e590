// The rows a join leaves and an undo restores (decision 048), written directly, for the tests of old numbers and
// joined histories (issue 24 items 6-7) until they can call the join and undo API: the merged-away patient's
// replaced_by and replaced_at, and the join itself. Nothing is re-pointed here.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryOne } from './sql';

export interface TestJoin {
  id: number;
  survivorId: number;
  mergedId: number;
  joinedAt: Date;
}

/** Joins `mergedId` into `survivorId` as a completed join leaves them. */
export async function joinPatients(db: Db, survivorId: number, mergedId: number, joinedAt: Date = new Date()): Promise<TestJoin> {
  const at = joinedAt.toISOString();
  await db.execute(sql`UPDATE patients SET replaced_by = ${survivorId}, replaced_at = ${at}::timestamptz WHERE id = ${mergedId}`);
  const row = await queryOne<{ id: number }>(
    db,
    sql`INSERT INTO patient_joins (survivor_id, merged_id, status, requested_at, approved_at, joined_at)
        VALUES (${survivorId}, ${mergedId}, 'joined', ${at}::timestamptz, ${at}::timestamptz, ${at}::timestamptz) RETURNING id`,
  );
  return { id: row!.id, survivorId, mergedId, joinedAt };
}

/** Undoes a join as the undo leaves it: the merged-away record active again, the join 'undone'. */
export async function undoJoin(db: Db, join: TestJoin, undoneAt: Date = new Date()): Promise<void> {
  await db.execute(sql`UPDATE patients SET replaced_by = NULL, replaced_at = NULL WHERE id = ${join.mergedId}`);
  await db.execute(
    sql`UPDATE patient_joins SET status = 'undone', undone_at = ${undoneAt.toISOString()}::timestamptz, undo_reason = 'Not the same person'
         WHERE id = ${join.id}`,
  );
}
