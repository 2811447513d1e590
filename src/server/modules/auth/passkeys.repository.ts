// Passkeys' tables (migration 0022, decision 026): webauthn_credentials (a staff user's or a patient's) and
// webauthn_challenges (5 minutes, deleted when used). Changes are written with their security event in one transaction.
import { and, asc, eq, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { patients, securityEvents, staffTotp, users, webauthnChallenges, webauthnCredentials } from '../../db/schema';
import type { SecurityEventRow } from './auth.repository';

/** Whose a passkey is: a staff user or a patient. */
export type PasskeyOwner = { kind: 'staff'; userId: string } | { kind: 'patient'; patientId: number };

const ownedBy = (owner: PasskeyOwner) =>
  owner.kind === 'staff' ? eq(webauthnCredentials.userId, owner.userId) : eq(webauthnCredentials.patientId, owner.patientId);

export type ChallengePurpose = 'register' | 'sign_in' | 'second_factor' | 'reauth';

export interface ChallengeRow {
  challenge: string;
  purpose: string;
  userId: string | null;
  patientId: number | null;
  sid: string | null;
}

/** Stores a new challenge; expired ones go with it (so the table holds at most 5 minutes of them). */
export async function insertChallenge(
  db: Db,
  row: ChallengeRow & { purpose: ChallengePurpose; createdAt: Date; expiresAt: Date },
  event: SecurityEventRow | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, row.createdAt));
    await tx.insert(webauthnChallenges).values(row);
    if (event) await tx.insert(securityEvents).values(event);
  });
}

/** Uses a challenge: deletes it and answers it when it was live and of this purpose; null when unknown, expired or used. */
export async function consumeChallenge(db: Db, challenge: string, purpose: ChallengePurpose, now: Date): Promise<ChallengeRow | null> {
  const c = webauthnChallenges;
  const [row] = await db
    .delete(c)
    .where(and(eq(c.challenge, challenge), eq(c.purpose, purpose)))
    .returning({
      challenge: c.challenge,
      purpose: c.purpose,
      userId: c.userId,
      patientId: c.patientId,
      sid: c.sid,
      expiresAt: c.expiresAt,
    });
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  return { challenge: row.challenge, purpose: row.purpose, userId: row.userId, patientId: row.patientId, sid: row.sid };
}

export interface CredentialRow {
  id: string;
  userId: string | null;
  patientId: number | null;
  publicKey: string;
  counter: number;
  transports: string | null;
  /** The staff owner's sign-in facts (null for a patient's passkey). */
  email: string | null;
  facility: string | null;
  accountActive: boolean;
}

/** A passkey by its credential id, with its staff owner's e-mail and state (the throttle's subject). */
export async function readCredential(db: Db, id: string): Promise<CredentialRow | null> {
  const w = webauthnCredentials;
  const [row] = await db
    .select({
      id: w.id,
      userId: w.userId,
      patientId: w.patientId,
      publicKey: w.publicKey,
      counter: w.counter,
      transports: w.transports,
      email: users.email,
      facility: users.facility,
      isActive: users.isActive,
      accountStatus: users.accountStatus,
    })
    .from(w)
    .leftJoin(users, eq(users.id, w.userId))
    .where(eq(w.id, id));
  if (!row) return null;
  const { isActive, accountStatus, ...rest } = row;
  return { ...rest, accountActive: Boolean(isActive) && accountStatus === 'active' };
}

/** A patient's NC number (the patient sign-in throttle's subject). */
export async function readPatientNcNumber(db: Db, patientId: number): Promise<string | null> {
  const [row] = await db.select({ nc: patients.idNumber }).from(patients).where(eq(patients.id, patientId));
  return row?.nc ?? null;
}

export interface PasskeyListRow {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  transports: string | null;
}

export function listCredentials(db: Db, owner: PasskeyOwner): Promise<PasskeyListRow[]> {
  const w = webauthnCredentials;
  return db
    .select({ id: w.id, name: w.name, createdAt: w.createdAt, lastUsedAt: w.lastUsedAt, transports: w.transports })
    .from(w)
    .where(ownedBy(owner))
    .orderBy(asc(w.createdAt), asc(w.id));
}

/** Stores a verified new passkey with its event; false when the credential id is already registered (to anyone). */
export async function insertCredential(
  db: Db,
  row: { id: string; owner: PasskeyOwner; publicKey: string; counter: number; transports: string | null; name: string; createdAt: Date },
  event: SecurityEventRow,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(webauthnCredentials)
      .values({
        id: row.id,
        userId: row.owner.kind === 'staff' ? row.owner.userId : null,
        patientId: row.owner.kind === 'patient' ? row.owner.patientId : null,
        publicKey: row.publicKey,
        counter: row.counter,
        transports: row.transports,
        name: row.name,
        createdAt: row.createdAt,
      })
      .onConflictDoNothing()
      .returning({ id: webauthnCredentials.id });
    if (inserted.length === 0) return false;
    await tx.insert(securityEvents).values(event);
    return true;
  });
}

/**
 * Records a verified use: the new signature counter (only forwards, so of two uses of one signature only one counts)
 * and the time. False when the counter went backwards in between (a cloned authenticator or a replay).
 */
export async function recordCredentialUse(db: Db, id: string, counter: number, now: Date): Promise<boolean> {
  const w = webauthnCredentials;
  const rows = await db
    .update(w)
    .set({ counter, lastUsedAt: now })
    .where(and(eq(w.id, id), or(lt(w.counter, counter), and(eq(w.counter, 0), sql`${counter} = 0`))))
    .returning({ id: w.id });
  return rows.length > 0;
}

/** Removes one of the owner's passkeys with its event; false when the owner has none with this id. */
export async function deleteCredential(db: Db, owner: PasskeyOwner, id: string, event: SecurityEventRow): Promise<boolean> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(webauthnCredentials)
      .where(and(eq(webauthnCredentials.id, id), ownedBy(owner)))
      .returning({ id: webauthnCredentials.id });
    if (rows.length === 0) return false;
    await tx.insert(securityEvents).values(event);
    return true;
  });
}

export async function countStaffPasskeys(db: Db, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId));
  return row?.n ?? 0;
}

/** Whether the user has an enabled authenticator app (removing the last passkey under a strict policy needs one). */
export async function hasEnabledTotp(db: Db, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ userId: staffTotp.userId })
    .from(staffTotp)
    .where(and(eq(staffTotp.userId, userId), sql`${staffTotp.enabledAt} IS NOT NULL`));
  return Boolean(row);
}
