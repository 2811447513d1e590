// The patient's portal credentials (migration 0019, decision 016): the PIN hash and the one live activation code.
// Sign-in bookkeeping reads and changes these outside an audited context: a sign-in is recorded as a security event
// (decision 004), not as an audit row; issuing a code is audited by its caller in the same transaction.
import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { patientPortalCredentials, patients } from '../../db/schema';

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

/**
 * Uses the code that was checked: sets the PIN and clears the code in one conditional update, so of two uses of one
 * code (even at the same moment, in two processes) exactly one changes a row. True when this one did.
 */
export async function useActivationCode(
  db: DbOrTx,
  use: { patientId: number; checkedCodeHash: string; pinHash: string; now: Date },
): Promise<boolean> {
  const c = patientPortalCredentials;
  const changed = await db
    .update(c)
    .set({ pinHash: use.pinHash, pinSetAt: use.now, codeHash: null, codeExpiresAt: null, codeUsedAt: use.now })
    .where(and(eq(c.patientId, use.patientId), eq(c.codeHash, use.checkedCodeHash), gt(c.codeExpiresAt, use.now)))
    .returning({ patientId: c.patientId });
  return changed.length === 1;
}
