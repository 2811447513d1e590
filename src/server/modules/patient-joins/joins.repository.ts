// The patient_joins rows (decision 048): a join asked for, performed, undone; the pair it decided; the join as the
// API shows it; and its security event.
import { eq, sql, type SQL } from 'drizzle-orm';
import type { JoinKeep, JoinStatus, PatientJoin } from '../../../contracts/patient-joins';
import type { PatientSummary } from '../../../contracts/patients';
import type { DbOrTx } from '../../db/client';
import { patientJoins, securityEvents } from '../../db/schema';
import { rows } from '../patients/search.repository';

/** A live join (pending or joined) that involves either patient, if any. */
export async function liveJoinOf(db: DbOrTx, patientIds: readonly number[]): Promise<{ id: number; status: JoinStatus } | null> {
  const ids = sql`ANY(${`{${patientIds.join(',')}}`}::int[])`;
  const [found] = await rows<{ id: number; status: JoinStatus }>(
    db,
    sql`SELECT id, status FROM patient_joins WHERE status = 'pending' AND (survivor_id = ${ids} OR merged_id = ${ids}) LIMIT 1`,
  );
  return found ?? null;
}

export interface JoinRow {
  id: number;
  pairId: number | null;
  survivorId: number;
  mergedId: number;
  status: JoinStatus;
  keep: JoinKeep;
  replaced: Record<string, { from: string | null; to: string | null }>;
  requestedBy: string | null;
}

export async function insertJoin(
  db: DbOrTx,
  values: {
    pairId: number;
    survivorId: number;
    mergedId: number;
    keep: JoinKeep;
    clinicalRows: number;
    reason: string | null;
    userId: string;
    name: string;
    at: Date;
  },
): Promise<number> {
  const [created] = await db
    .insert(patientJoins)
    .values({
      pairId: values.pairId,
      survivorId: values.survivorId,
      mergedId: values.mergedId,
      status: 'pending',
      keep: values.keep,
      clinicalRows: values.clinicalRows,
      reason: values.reason,
      requestedBy: values.userId,
      requestedByName: values.name,
      requestedAt: values.at,
    })
    .returning({ id: patientJoins.id });
  return created!.id;
}

/** The join's row, locked until commit. */
export async function lockJoin(db: DbOrTx, joinId: number): Promise<JoinRow | null> {
  const [found] = await rows<JoinRow>(
    db,
    sql`SELECT id, pair_id AS "pairId", survivor_id AS "survivorId", merged_id AS "mergedId", status, keep, replaced,
               requested_by AS "requestedBy"
          FROM patient_joins WHERE id = ${joinId} FOR UPDATE`,
  );
  return found ?? null;
}

export async function markJoined(
  db: DbOrTx,
  joinId: number,
  done: { replaced: JoinRow['replaced']; rowsMoved: number; at: Date; approvedBy: { userId: string; name: string } | null },
): Promise<void> {
  await db
    .update(patientJoins)
    .set({
      status: 'joined',
      replaced: done.replaced,
      rowsMoved: done.rowsMoved,
      joinedAt: done.at,
      ...(done.approvedBy ? { approvedBy: done.approvedBy.userId, approvedByName: done.approvedBy.name, approvedAt: done.at } : {}),
    })
    .where(eq(patientJoins.id, joinId));
}

export async function markUndone(
  db: DbOrTx,
  joinId: number,
  by: { userId: string; name: string; at: Date; reason: string },
): Promise<void> {
  await db
    .update(patientJoins)
    .set({ status: 'undone', undoneBy: by.userId, undoneByName: by.name, undoneAt: by.at, undoReason: by.reason })
    .where(eq(patientJoins.id, joinId));
}

/** A later join (pending or joined) in which this join's survivor is the record joined away. */
export async function laterJoinOf(db: DbOrTx, survivorId: number): Promise<number | null> {
  const [found] = await rows<{ id: number }>(
    db,
    sql`SELECT id FROM patient_joins WHERE merged_id = ${survivorId} AND status IN ('pending', 'joined') LIMIT 1`,
  );
  return found?.id ?? null;
}

/** The pair decided "same" (or back to open on undo). */
export async function setPairStatus(
  db: DbOrTx,
  pairId: number,
  decision: { status: 'same'; userId: string; name: string; at: Date; reason: string | null } | { status: 'open' },
): Promise<void> {
  if (decision.status === 'open') {
    await db.execute(sql`UPDATE duplicate_pairs SET status = 'open', decided_by = NULL, decided_by_name = NULL, decided_at = NULL,
                                decision_reason = NULL WHERE id = ${pairId}`);
    return;
  }
  await db.execute(
    sql`UPDATE duplicate_pairs SET status = 'same', decided_by = ${decision.userId}, decided_by_name = ${decision.name},
               decided_at = ${decision.at}, decision_reason = ${decision.reason}
         WHERE id = ${pairId}`,
  );
}

const summary = (alias: string): SQL => {
  const p = sql.raw(alias);
  return sql`json_build_object('id', ${p}.id, 'firstName', ${p}.first_name, 'lastName', ${p}.last_name,
    'dateOfBirth', ${p}.date_of_birth::text, 'idNumber', ${p}.id_number, 'sex', ${p}.sex, 'address', ${p}.address)`;
};
const ts = (column: string): SQL => sql.raw(`to_char(j.${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** Joins as the API shows them, newest first. */
export async function selectJoins(db: DbOrTx, where: { id?: number; status?: JoinStatus; patientId?: number }): Promise<PatientJoin[]> {
  const conditions: SQL[] = [sql`true`];
  if (where.id !== undefined) conditions.push(sql`j.id = ${where.id}`);
  if (where.status !== undefined) conditions.push(sql`j.status = ${where.status}`);
  if (where.patientId !== undefined) conditions.push(sql`(j.survivor_id = ${where.patientId} OR j.merged_id = ${where.patientId})`);
  const found = await rows<PatientJoin & { survivor: PatientSummary; merged: PatientSummary }>(
    db,
    sql`SELECT j.id, j.pair_id AS "pairId", j.status, ${summary('s')} AS survivor, ${summary('m')} AS merged, j.keep, j.replaced,
               j.clinical_rows AS "clinicalRows", j.rows_moved AS "rowsMoved", j.reason, j.requested_by_name AS "requestedBy",
               ${ts('requested_at')} AS "requestedAt", j.approved_by_name AS "approvedBy", ${ts('approved_at')} AS "approvedAt",
               ${ts('joined_at')} AS "joinedAt", j.undone_by_name AS "undoneBy", ${ts('undone_at')} AS "undoneAt",
               j.undo_reason AS "undoReason"
          FROM patient_joins AS j JOIN patients AS s ON s.id = j.survivor_id JOIN patients AS m ON m.id = j.merged_id
         WHERE ${sql.join(conditions, sql` AND `)}
         ORDER BY j.requested_at DESC, j.id DESC
         LIMIT 500`,
  );
  return found;
}

/** A join or its undo as a security-reviewable event (the security events screen and the privacy review read them). */
export async function insertJoinEvent(
  db: DbOrTx,
  event: {
    type: 'PATIENT_JOIN' | 'PATIENT_JOIN_UNDONE';
    userId: string;
    description: string;
    metadata: Record<string, unknown>;
    ip: string;
    userAgent: string | null;
    facility: string | null;
    at: Date;
  },
): Promise<void> {
  await db.insert(securityEvents).values({
    userId: event.userId,
    eventType: event.type,
    severity: 'medium',
    description: event.description,
    ipAddress: event.ip,
    userAgent: event.userAgent,
    metadata: event.metadata,
    facility: event.facility,
    timestamp: event.at,
  });
}
