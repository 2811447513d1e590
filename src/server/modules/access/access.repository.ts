// Record access grants (DESIGN.md §4) on the access_grants table, and the patient's demographics the record shows.
import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import { hotStatement, slotValues, type DbOrTx, type Slots } from '../../db/client';
import { actorCheckSlotted, type ActorSlots } from '../../context/session';
import { survivorIdSql } from '../../db/joined-patients';
import { liveGrantSql } from '../../db/live-grant';
import { patientDetailsColumns } from '../../db/patient-columns';
import { accessGrants, patients } from '../../db/schema';
import type { PatientDetails } from '../../../contracts/patients';

/** A patient's demographics: the shape the registry's contract defines. */
export type PatientRow = PatientDetails;

export interface GrantRow {
  id: number;
  patientId: number;
  consent: boolean;
  reason: string | null;
  grantedAt: Date;
  expiresAt: Date;
}

export interface NewGrant {
  userId: string;
  patientId: number;
  consent: boolean;
  reason: string | null;
  grantedAt: Date;
  expiresAt: Date;
}

const patientColumns = patientDetailsColumns;

/** The patient's demographics, or null when there is no such patient. */
export async function findPatient(db: DbOrTx, patientId: number): Promise<PatientRow | null> {
  const [row] = await db.select(patientColumns).from(patients).where(eq(patients.id, patientId));
  return row ?? null;
}

/**
 * The patient and whether this user holds a live grant for them, in one query (one round trip for the common
 * record open); null when the patient does not exist.
 */
export async function findPatientWithGrant(
  db: DbOrTx,
  userId: string,
  patientId: number,
  now: Date,
): Promise<{ patient: PatientRow; granted: boolean; survivorId: number | null } | null> {
  const [row] = await db
    .select({
      ...patientColumns,
      granted: sql<boolean>`${patients.replacedBy} IS NULL AND ${liveGrantSql(userId, patientId, now.toISOString())}`,
      survivorId: sql<number | null>`CASE WHEN ${patients.replacedBy} IS NOT NULL THEN ${survivorIdSql(sql`${patients.id}`)} END`,
    })
    .from(patients)
    .where(eq(patients.id, patientId));
  if (!row) return null;
  const { granted, survivorId, ...patient } = row;
  return { patient, granted, survivorId };
}

/** What differs between two grant checks: who, which patient, when. */
interface LiveGrantSlots {
  userId: string;
  patientId: number;
  now: string;
}

/**
 * `survivorId`: the record a joined-away patient now belongs to (decision 048), else null; `survivorIdNumber`: its NC
 * number, only when this user holds a live grant for the survivor.
 */
type LiveGrantRow = { actorOk: boolean; granted: boolean; found: boolean; survivorId: number | null; survivorIdNumber: string | null };

/** The grant check (DESIGN.md §4), with the cached actor's confirmation first when `actor` is given (decision 028). */
function grantCheckSql(slot: Slots<LiveGrantSlots>, actor: SQL | null): SQL {
  const actorOk = actor ? sql`(SELECT ok FROM actor_ok)` : sql`true`;
  const grantOn = (patient: SQL) => liveGrantSql(slot.userId, patient, slot.now);
  // A joined-away record is never granted; the survivor is looked up only then (the common open reads one row).
  return sql`${actor ? sql`WITH ${actor}` : sql``}
        SELECT ${actorOk} AS "actorOk",
               ${actorOk} AND p.replaced_by IS NULL AND ${grantOn(slot.patientId)} AS granted,
               ${actorOk} AND p.id IS NOT NULL AS found,
               CASE WHEN ${actorOk} THEN j.survivor_id END AS "survivorId",
               CASE WHEN ${actorOk} AND ${grantOn(sql`j.survivor_id`)} THEN (SELECT s.id_number FROM patients AS s WHERE s.id = j.survivor_id) END
                 AS "survivorIdNumber"
          FROM (SELECT 1) AS one
          LEFT JOIN patients AS p ON p.id = ${slot.patientId}
          LEFT JOIN LATERAL (SELECT ${survivorIdSql(sql`p.id`)} AS survivor_id WHERE p.replaced_by IS NOT NULL) AS j ON true`;
}

const liveGrantStatement = hotStatement<LiveGrantSlots, LiveGrantRow>('nhr_live_grant', (slot) => grantCheckSql(slot, null));
const liveGrantActorStatement = hotStatement<LiveGrantSlots & ActorSlots, LiveGrantRow>('nhr_live_grant_actor', (slot) =>
  grantCheckSql(slot, actorCheckSlotted(slot)),
);

/**
 * Whether this user holds a live grant for this patient, whether the patient exists and, for a joined-away patient,
 * its survivor, in one statement; with
 * `actor` (context/session's actorSlotsOf), `actorOk` false when the cached actor was not confirmed (then neither).
 */
export async function liveGrant(db: DbOrTx, userId: string, patientId: number, now: Date, actor?: ActorSlots): Promise<LiveGrantRow> {
  const values: LiveGrantSlots = { userId, patientId, now: now.toISOString() };
  const [row] = actor ? await liveGrantActorStatement(db, slotValues(values, actor)) : await liveGrantStatement(db, slotValues(values));
  return row!;
}

/**
 * The user's break-the-glass grants (without consent) of the hour before `now`, and when the oldest of them was made
 * (the ceiling's Retry-After): issue 21 item 8, on the (user_id, granted_at) index of migration 0030.
 */
export async function breakGlassInHour(db: DbOrTx, userId: string, now: Date): Promise<{ count: number; oldest: Date | null }> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int`, oldest: sql<string | null>`min(${accessGrants.grantedAt})` })
    .from(accessGrants)
    .where(
      and(
        eq(accessGrants.userId, userId),
        eq(accessGrants.consent, false),
        gt(accessGrants.grantedAt, sql`${now.toISOString()}::timestamptz - interval '1 hour'`),
      ),
    );
  return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
}

/**
 * Offline clinic mode (decision 061): whether this user holds a live grant for the patient now, or held one whose
 * window [granted_at, expires_at) met [from, to] (the device's time of an offline write, give or take the clock skew
 * allowed), whether the patient exists and, for a joined-away patient (never granted), its survivor; one statement.
 */
export async function grantNowOrAt(
  db: DbOrTx,
  userId: string,
  patientId: number,
  now: Date,
  window: { from: Date; to: Date },
): Promise<{ found: boolean; granted: boolean; survivorId: number | null }> {
  type Row = { found: boolean; granted: boolean; survivorId: number | null };
  const result = await db.execute(
    sql`SELECT p.id IS NOT NULL AS found,
               p.replaced_by IS NULL AND EXISTS (
                 SELECT 1 FROM access_grants AS g WHERE g.user_id = ${userId} AND g.patient_id = p.id
                    AND (g.expires_at > ${now.toISOString()}::timestamptz
                         OR (g.granted_at <= ${window.to.toISOString()}::timestamptz AND g.expires_at > ${window.from.toISOString()}::timestamptz))
               ) AS granted,
               CASE WHEN p.replaced_by IS NOT NULL THEN ${survivorIdSql(sql`p.id`)} END AS "survivorId"
          FROM (SELECT 1) AS one LEFT JOIN patients AS p ON p.id = ${patientId}`,
  );
  return (result as unknown as { rows: Row[] }).rows[0]!;
}
