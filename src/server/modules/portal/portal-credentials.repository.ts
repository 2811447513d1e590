// The patient's portal credentials (migration 0019, decision 016): the PIN hash and the one live activation code.
// Sign-in bookkeeping reads and changes these outside an audited context: a sign-in is recorded as a security event
// (decision 004), not as an audit row; issuing a code is audited by its caller in the same transaction.
import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { currentIdSql } from '../../db/joined-patients';
import { patientPortalCredentials, patients, roles, users, webauthnCredentials } from '../../db/schema';

export interface PortalSignInRow {
  id: number;
  firstName: string;
  dateOfBirth: string | null;
  pinHash: string | null;
  codeHash: string | null;
  codeExpiresAt: Date | null;
  codeUsedAt: Date | null;
  /** Issue 21 item 1 (decision 031): the live code is for a portal already active. */
  codeNeedsCurrentPin: boolean | null;
  codeIssuedBy: string | null;
  codeIssuedAt: Date | null;
  codeIssuedIp: string | null;
  codeIssuedUserAgent: string | null;
  resetConfirmedBy: string | null;
  /**
   * The dates of birth the sign-in accepts: the record's, and when the number typed is a record joined into this one
   * (decision 048), that record's too (the person may still give the one the clinic first wrote down).
   */
  datesOfBirth: string[];
}

/**
 * What a patient sign-in compares: the patient by the unique NC number, with their credentials if any. The number of
 * a record joined into another (decision 048) names the record it now belongs to, whose credentials the join kept.
 */
export async function findPortalSignIn(db: DbOrTx, ncNumber: string): Promise<PortalSignInRow | null> {
  const c = patientPortalCredentials;
  const named = alias(patients, 'named');
  const [row] = await db
    .select({
      id: patients.id,
      firstName: patients.firstName,
      dateOfBirth: patients.dateOfBirth,
      pinHash: c.pinHash,
      codeHash: c.codeHash,
      codeExpiresAt: c.codeExpiresAt,
      codeUsedAt: c.codeUsedAt,
      codeNeedsCurrentPin: c.codeNeedsCurrentPin,
      codeIssuedBy: c.codeIssuedBy,
      codeIssuedAt: c.codeIssuedAt,
      codeIssuedIp: c.codeIssuedIp,
      codeIssuedUserAgent: c.codeIssuedUserAgent,
      resetConfirmedBy: c.resetConfirmedBy,
      typedDateOfBirth: named.dateOfBirth,
    })
    .from(named)
    .innerJoin(patients, eq(patients.id, sql`${currentIdSql(sql`${named.id}`, sql`${named.replacedBy}`)}`))
    .leftJoin(c, eq(c.patientId, patients.id))
    .where(eq(named.idNumber, ncNumber));
  if (!row) return null;
  const { typedDateOfBirth, ...found } = row;
  const datesOfBirth = [found.dateOfBirth, typedDateOfBirth].filter((d): d is string => d !== null);
  return { ...found, datesOfBirth: [...new Set(datesOfBirth)] };
}

/** The patient's NC number (the sign-in throttle's subject), or null when the patient is gone. */
export async function readPatientNcNumberOf(db: DbOrTx, patientId: number): Promise<string | null> {
  const [row] = await db.select({ nc: patients.idNumber }).from(patients).where(eq(patients.id, patientId));
  return row?.nc ?? null;
}

/**
 * Stores a new live code for the patient, replacing any earlier one (and any confirmation of an earlier reset); the
 * PIN and passkeys (if any) are kept until the code is used. A code for a portal that already has a PIN needs the
 * current PIN when used, unless a second staff member confirms the reset (decision 031). Answers whether it does.
 */
export async function storeActivationCode(
  tx: DbOrTx,
  code: {
    patientId: number;
    codeHash: string;
    issuedAt: Date;
    expiresAt: Date;
    issuedBy: string;
    ip: string | null;
    userAgent: string | null;
  },
): Promise<{ needsCurrentPin: boolean }> {
  const c = patientPortalCredentials;
  const [existing] = await tx.select({ pinHash: c.pinHash }).from(c).where(eq(c.patientId, code.patientId)).for('update');
  const needsCurrentPin = Boolean(existing?.pinHash);
  const values = {
    codeHash: code.codeHash,
    codeIssuedAt: code.issuedAt,
    codeExpiresAt: code.expiresAt,
    codeIssuedBy: code.issuedBy,
    codeUsedAt: null,
    codeNeedsCurrentPin: needsCurrentPin,
    codeIssuedIp: code.ip?.slice(0, 64) ?? null,
    codeIssuedUserAgent: code.userAgent,
    resetConfirmedBy: null,
    resetConfirmedAt: null,
  };
  await tx
    .insert(c)
    .values({ patientId: code.patientId, ...values })
    .onConflictDoUpdate({ target: c.patientId, set: values });
  return { needsCurrentPin };
}

/** The live code's state, for the desk's portal status and the reset confirmation. */
export interface LiveCodeRow {
  pinSet: boolean;
  codeLive: boolean;
  codeIssuedBy: string | null;
  codeIssuedAt: Date | null;
  codeExpiresAt: Date | null;
  codeNeedsCurrentPin: boolean;
  resetConfirmedBy: string | null;
  resetConfirmedAt: Date | null;
}

export async function readLiveCode(db: DbOrTx, patientId: number, now: Date, forUpdate = false): Promise<LiveCodeRow | null> {
  const c = patientPortalCredentials;
  const q = db
    .select({
      pinHash: c.pinHash,
      codeHash: c.codeHash,
      codeIssuedBy: c.codeIssuedBy,
      codeIssuedAt: c.codeIssuedAt,
      codeExpiresAt: c.codeExpiresAt,
      codeNeedsCurrentPin: c.codeNeedsCurrentPin,
      resetConfirmedBy: c.resetConfirmedBy,
      resetConfirmedAt: c.resetConfirmedAt,
    })
    .from(c)
    .where(eq(c.patientId, patientId));
  const [row] = forUpdate ? await q.for('update') : await q;
  if (!row) return null;
  return {
    pinSet: Boolean(row.pinHash),
    codeLive: Boolean(row.codeHash) && Boolean(row.codeExpiresAt && row.codeExpiresAt.getTime() > now.getTime()),
    codeIssuedBy: row.codeIssuedBy,
    codeIssuedAt: row.codeIssuedAt,
    codeExpiresAt: row.codeExpiresAt,
    codeNeedsCurrentPin: row.codeNeedsCurrentPin,
    resetConfirmedBy: row.resetConfirmedBy,
    resetConfirmedAt: row.resetConfirmedAt,
  };
}

/** The second staff member's confirmation of a reset without the current PIN (two-person rule). */
export async function storeResetConfirmation(tx: DbOrTx, patientId: number, confirmedBy: string, at: Date): Promise<void> {
  await tx
    .update(patientPortalCredentials)
    .set({ resetConfirmedBy: confirmedBy, resetConfirmedAt: at })
    .where(eq(patientPortalCredentials.patientId, patientId));
}

/** A staff member's name, facility and role now (the issuer or confirmer named in the patient's access history). */
export async function readStaffNames(
  db: DbOrTx,
  userId: string,
): Promise<{ name: string; facility: string | null; role: { name: string; displayName: string } | null } | null> {
  const [row] = await db
    .select({
      first: users.firstName,
      last: users.lastName,
      facility: users.facility,
      roleName: roles.name,
      roleDisplay: roles.displayName,
    })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId));
  if (!row) return null;
  return {
    name: `${row.first} ${row.last}`,
    facility: row.facility,
    role: row.roleName ? { name: row.roleName, displayName: row.roleDisplay ?? row.roleName } : null,
  };
}

/** Marks the session a suspected desk activation opened (decision 031): its first record read raises the alert. */
export async function markSuspectSession(db: DbOrTx, patientId: number, sid: string, issuer: string): Promise<void> {
  await db
    .update(patientPortalCredentials)
    .set({ suspectSession: sid, suspectIssuer: issuer })
    .where(eq(patientPortalCredentials.patientId, patientId));
}

/**
 * Takes the mark of a suspected desk activation (decision 031) off the patient's portal when `sid` is the marked
 * session: an UPDATE ... RETURNING the issuer (a row only when it was marked), for the portal's record read to run in
 * its own statement (records/own-record.repository.ts), so the check costs no round trip of its own (issue 29).
 * RETURNING gives the row after the update: the issuer is read from the row locked before it.
 */
export const takeSuspectSessionSql = (patientId: SQL, sid: SQL, when: SQL): SQL => sql`
    UPDATE patient_portal_credentials c SET suspect_session = NULL, suspect_issuer = NULL
    FROM (SELECT patient_id, suspect_issuer FROM patient_portal_credentials
          WHERE patient_id = ${patientId} AND suspect_session = ${sid} AND ${when} FOR UPDATE) old
    WHERE c.patient_id = old.patient_id
    RETURNING old.suspect_issuer AS issuer`;

/** What the patient is told after a confirmed reset (decision 031), until they dismiss it. */
export interface ResetNotice {
  at: string;
  issuedBy: string;
  confirmedBy: string;
}

export async function readResetNotice(db: DbOrTx, patientId: number): Promise<ResetNotice | null> {
  const [row] = await db
    .select({ notice: patientPortalCredentials.resetNotice })
    .from(patientPortalCredentials)
    .where(eq(patientPortalCredentials.patientId, patientId));
  return (row?.notice as ResetNotice | null | undefined) ?? null;
}

export async function clearResetNotice(db: DbOrTx, patientId: number): Promise<void> {
  await db.update(patientPortalCredentials).set({ resetNotice: null }).where(eq(patientPortalCredentials.patientId, patientId));
}

/** What using a code ended (issue 21 item 2): the passkeys and the open portal sessions of the patient. */
export interface CodeUse {
  /** Whether the portal had a PIN before (a reset rather than a first activation). */
  hadPin: boolean;
  passkeysRemoved: number;
  sessionsEnded: number;
}

/**
 * Uses the code that was checked: sets the PIN and clears the code in one conditional update, so of two uses of one
 * code (even at the same moment, in two processes) exactly one changes a row. In the same transaction a reset ends
 * every passkey and every open session of the patient's portal (issue 21 item 2): nothing opened before the new code
 * keeps working. Null when this use lost the race (or the code is no longer live).
 */
export async function useActivationCode(
  db: DbOrTx,
  use: { patientId: number; checkedCodeHash: string; pinHash: string; now: Date; notice?: ResetNotice | null },
): Promise<CodeUse | null> {
  const c = patientPortalCredentials;
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ pinHash: c.pinHash }).from(c).where(eq(c.patientId, use.patientId)).for('update');
    const changed = await tx
      .update(c)
      .set({
        pinHash: use.pinHash,
        pinSetAt: use.now,
        codeHash: null,
        codeExpiresAt: null,
        codeUsedAt: use.now,
        codeNeedsCurrentPin: false,
        resetConfirmedBy: null,
        resetConfirmedAt: null,
        suspectSession: null,
        suspectIssuer: null,
        ...(use.notice ? { resetNotice: use.notice } : {}),
      })
      .where(and(eq(c.patientId, use.patientId), eq(c.codeHash, use.checkedCodeHash), gt(c.codeExpiresAt, use.now)))
      .returning({ patientId: c.patientId });
    if (changed.length !== 1) return null;
    const removed = await tx
      .delete(webauthnCredentials)
      .where(eq(webauthnCredentials.patientId, use.patientId))
      .returning({ id: webauthnCredentials.id });
    const sessionsEnded = await deleteSessionsOfPatient(tx, use.patientId);
    return { hadPin: Boolean(before?.pinHash), passkeysRemoved: removed.length, sessionsEnded };
  });
}

/** Deletes every open portal session of the patient; returns how many. */
export async function deleteSessionsOfPatient(db: DbOrTx, patientId: number): Promise<number> {
  const result = await db.execute(sql`
    WITH s AS (DELETE FROM sessions WHERE sess->>'kind' = 'patient' AND sess->>'patientId' = ${String(patientId)} RETURNING sid)
    SELECT count(*)::int AS n FROM s`);
  return (result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
}
