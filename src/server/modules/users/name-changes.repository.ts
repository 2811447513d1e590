// Name changes waiting for an administrator (issue 21 item 10, migration 0035): the request, the list, the decision.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { roles, securityEvents, staffNameChanges, users } from '../../db/schema';
import type { NewSecurityEvent } from './users.repository';

export interface NameChangeRow {
  id: number;
  userId: string;
  email: string;
  roleName: string | null;
  roleDisplayName: string | null;
  facility: string | null;
  oldFirstName: string;
  oldLastName: string;
  firstName: string;
  lastName: string;
  requestedAt: Date;
  /** Other active staff who already bear the requested name. */
  sameNameAs: number;
}

/** Replaces the user's pending request (one at a time), in the caller's transaction. */
export async function upsertPendingNameChange(
  tx: DbOrTx,
  change: { userId: string; oldFirstName: string; oldLastName: string; firstName: string; lastName: string; requestedAt: Date },
  event: NewSecurityEvent,
): Promise<void> {
  await tx.delete(staffNameChanges).where(and(eq(staffNameChanges.userId, change.userId), eq(staffNameChanges.status, 'pending')));
  await tx.insert(staffNameChanges).values({ ...change, status: 'pending' });
  await tx.insert(securityEvents).values({ ...event, userId: change.userId });
}

/** The user's pending request, if any. */
export async function findPendingNameChange(
  db: DbOrTx,
  userId: string,
): Promise<{ firstName: string; lastName: string; requestedAt: Date } | null> {
  const [row] = await db
    .select({ firstName: staffNameChanges.firstName, lastName: staffNameChanges.lastName, requestedAt: staffNameChanges.requestedAt })
    .from(staffNameChanges)
    .where(and(eq(staffNameChanges.userId, userId), eq(staffNameChanges.status, 'pending')));
  return row ?? null;
}

/** Every pending request, oldest first, with who asks and whether another active member of staff bears that name. */
export function listPendingNameChanges(db: DbOrTx): Promise<NameChangeRow[]> {
  return db
    .select({
      id: staffNameChanges.id,
      userId: staffNameChanges.userId,
      email: users.email,
      roleName: roles.name,
      roleDisplayName: roles.displayName,
      facility: users.facility,
      oldFirstName: staffNameChanges.oldFirstName,
      oldLastName: staffNameChanges.oldLastName,
      firstName: staffNameChanges.firstName,
      lastName: staffNameChanges.lastName,
      requestedAt: staffNameChanges.requestedAt,
      sameNameAs: sql<number>`(SELECT count(*)::int FROM users o WHERE o.id <> ${staffNameChanges.userId} AND o.is_active
        AND lower(o.first_name) = lower(${staffNameChanges.firstName}) AND lower(o.last_name) = lower(${staffNameChanges.lastName}))`,
    })
    .from(staffNameChanges)
    .innerJoin(users, eq(users.id, staffNameChanges.userId))
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(staffNameChanges.status, 'pending'))
    .orderBy(asc(staffNameChanges.requestedAt), asc(staffNameChanges.id));
}

/**
 * Decides a pending request: approved sets the user's name; both record who decided and the event. 'missing' when
 * there is no pending request with this id.
 */
export async function decideNameChange(
  tx: DbOrTx,
  id: number,
  decision: 'approved' | 'rejected',
  by: string,
  now: Date,
  event: NewSecurityEvent,
): Promise<
  { userId: string; old: { firstName: string; lastName: string }; requested: { firstName: string; lastName: string } } | 'missing'
> {
  const [row] = await tx
    .update(staffNameChanges)
    .set({ status: decision, decidedAt: now, decidedBy: by })
    .where(and(eq(staffNameChanges.id, id), eq(staffNameChanges.status, 'pending')))
    .returning();
  if (!row) return 'missing';
  if (decision === 'approved') {
    await tx.update(users).set({ firstName: row.firstName, lastName: row.lastName, updatedAt: now }).where(eq(users.id, row.userId));
  }
  await tx.insert(securityEvents).values({ ...event, userId: row.userId });
  return {
    userId: row.userId,
    old: { firstName: row.oldFirstName, lastName: row.oldLastName },
    requested: { firstName: row.firstName, lastName: row.lastName },
  };
}

/** The user a pending request belongs to (for the own-request check), or null. */
export async function pendingNameChangeOwner(db: DbOrTx, id: number): Promise<string | null> {
  const [row] = await db
    .select({ userId: staffNameChanges.userId })
    .from(staffNameChanges)
    .where(and(eq(staffNameChanges.id, id), eq(staffNameChanges.status, 'pending')));
  return row?.userId ?? null;
}
