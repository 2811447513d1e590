// The patient's portal credentials (migration 0019, decision 016): the PIN hash and the one live activation code.
// Sign-in bookkeeping reads and changes these outside an audited context: a sign-in is recorded as a security event
// (decision 004), not as an audit row; issuing a code is audited by its caller in the same transaction.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { patientPortalCredentials, patients, webauthnCredentials } from '../../db/schema';

export interface PortalSignInRow {
  id: number;
  firstName: string;
  dateOfBirth: string | null;
  pinHash: string | null;
  codeHash: string | null;
  codeExpiresAt: Date | null;
  codeUsedAt: Date | null;
}

/** What a patient sign-in compares: the patient by the unique NC number, with their credentials if any. */
export async function findPortalSignIn(db: DbOrTx, ncNumber: string): Promise<PortalSignInRow | null> {
  const c = patientPortalCredentials;
  const [row] = await db
    .select({
      id: patients.id,
      firstName: patients.firstName,
      dateOfBirth: patients.dateOfBirth,
      pinHash: c.pinHash,
      codeHash: c.codeHash,
      codeExpiresAt: c.codeExpiresAt,
      codeUsedAt: c.codeUsedAt,
    })
    .from(patients)
    .leftJoin(c, eq(c.patientId, patients.id))
    .where(eq(patients.idNumber, ncNumber));
  return row ?? null;
}

/** The patient's NC number (the sign-in throttle's subject), or null when the patient is gone. */
export async function readPatientNcNumberOf(db: DbOrTx, patientId: number): Promise<string | null> {
  const [row] = await db.select({ nc: patients.idNumber }).from(patients).where(eq(patients.id, patientId));
  return row?.nc ?? null;
}

/** Stores a new live code for the patient, replacing any earlier one; the PIN (if any) is kept until the code is used. */
export async function storeActivationCode(
  tx: DbOrTx,
  code: { patientId: number; codeHash: string; issuedAt: Date; expiresAt: Date; issuedBy: string },
): Promise<void> {
  const values = {
    codeHash: code.codeHash,
    codeIssuedAt: code.issuedAt,
    codeExpiresAt: code.expiresAt,
    codeIssuedBy: code.issuedBy,
    codeUsedAt: null,
  };
  await tx
    .insert(patientPortalCredentials)
    .values({ patientId: code.patientId, ...values })
    .onConflictDoUpdate({ target: patientPortalCredentials.patientId, set: values });
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
  use: { patientId: number; checkedCodeHash: string; pinHash: string; now: Date },
): Promise<CodeUse | null> {
  const c = patientPortalCredentials;
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ pinHash: c.pinHash }).from(c).where(eq(c.patientId, use.patientId)).for('update');
    const changed = await tx
      .update(c)
      .set({ pinHash: use.pinHash, pinSetAt: use.now, codeHash: null, codeExpiresAt: null, codeUsedAt: use.now })
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
