// Record access grants (DESIGN.md §4) on the access_grants table, and the patient's demographics the record shows.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
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

export async function patientExists(db: DbOrTx, patientId: number): Promise<boolean> {
  const [row] = await db.select({ id: patients.id }).from(patients).where(eq(patients.id, patientId));
  return Boolean(row);
}

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
): Promise<{ patient: PatientRow; granted: boolean } | null> {
  const [row] = await db
    .select({
      ...patientColumns,
      granted: sql<boolean>`exists (
        SELECT 1 FROM ${accessGrants}
        WHERE ${accessGrants.userId} = ${userId} AND ${accessGrants.patientId} = ${patientId} AND ${accessGrants.expiresAt} > ${now.toISOString()}::timestamptz
      )`,
    })
    .from(patients)
    .where(eq(patients.id, patientId));
  if (!row) return null;
  const { granted, ...patient } = row;
  return { patient, granted };
}

/** True when this user holds a grant for this patient that has not expired at `now` (one index probe). */
export async function hasLiveGrant(db: DbOrTx, userId: string, patientId: number, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: accessGrants.id })
    .from(accessGrants)
    .where(and(eq(accessGrants.userId, userId), eq(accessGrants.patientId, patientId), gt(accessGrants.expiresAt, now)))
    .limit(1);
  return Boolean(row);
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
