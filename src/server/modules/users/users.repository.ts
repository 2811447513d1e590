// Staff accounts: the users table and the security events that record changes to it.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { SYSTEM_ACCOUNT_STATUS, SYSTEM_CLIENT_ROLE_ID } from '../../../contracts/api-clients';
import type { Db, DbOrTx } from '../../db/client';
import { roles, securityEvents, users } from '../../db/schema';

export type NewSecurityEvent = Omit<typeof securityEvents.$inferInsert, 'id' | 'userId'>;

export interface NewUser {
  firstName: string;
  lastName: string;
  email: string;
  passwordHash: string;
  roleId: number;
  facility: string | null;
  department: string | null;
  phoneNumber: string | null;
  isActive: boolean;
  accountStatus: string;
  activatedAt?: Date | null;
  activatedBy?: string | null;
  createdAt?: Date;
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** Inserts a user (and the event recording it, in the same transaction); null when the e-mail is taken. */
export async function insertUser(db: Db, user: NewUser, event?: NewSecurityEvent): Promise<string | null> {
  const id = randomUUID();
  try {
    await db.transaction(async (tx) => {
      await tx.insert(users).values({ id, ...user, updatedAt: user.createdAt ?? new Date() });
      if (event) await tx.insert(securityEvents).values({ ...event, userId: id });
    });
    return id;
  } catch (err) {
    if (isUniqueViolation(err)) return null;
    throw err;
  }
}

export interface LoginCandidate {
  id: string;
  passwordHash: string;
  isActive: boolean;
  accountStatus: string;
  facility: string | null;
}

/** What sign-in needs to decide. */
export async function findLoginCandidate(db: Db, email: string): Promise<LoginCandidate | null> {
  const [row] = await db
    .select({
      id: users.id,
      passwordHash: users.passwordHash,
      isActive: users.isActive,
      accountStatus: users.accountStatus,
      facility: users.facility,
    })
    .from(users)
    .where(eq(users.email, email));
  return row ?? null;
}

export interface UserWithRole {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  department: string | null;
  facility: string | null;
  roleId: number | null;
  roleName: string | null;
  roleDisplayName: string | null;
  isActive: boolean;
  accountStatus: string;
  profileImageUrl: string | null;
  licenseNumber: string | null;
  address: string | null;
  activatedAt: Date | null;
  lastLoginAt: Date | null;
  createdAt: Date;
}

const userColumns = {
  id: users.id,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  phoneNumber: users.phoneNumber,
  department: users.department,
  facility: users.facility,
  roleId: users.roleId,
  roleName: roles.name,
  roleDisplayName: roles.displayName,
  isActive: users.isActive,
  accountStatus: users.accountStatus,
  profileImageUrl: users.profileImageUrl,
  licenseNumber: users.licenseNumber,
  address: users.address,
  activatedAt: users.activatedAt,
  lastLoginAt: users.lastLoginAt,
  createdAt: users.createdAt,
};

export async function findUserWithRole(db: DbOrTx, id: string): Promise<UserWithRole | null> {
  const [row] = await db.select(userColumns).from(users).leftJoin(roles, eq(roles.id, users.roleId)).where(eq(users.id, id));
  return row ?? null;
}

export async function emailTaken(db: Db, email: string, exceptUserId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(exceptUserId ? and(eq(users.email, email), ne(users.id, exceptUserId)) : eq(users.email, email));
  return Boolean(row);
}

export interface ProfileFields {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string | null;
  department: string;
  facility: string;
  address?: string | null | undefined;
}

export type ProfileBefore = ProfileFields & { phoneNumber: string | null; department: string | null; address: string | null };

/**
 * Updates exactly the profile fields with its security event; answers the fields as they were, or null when the user
 * is gone. A taken e-mail throws the unique violation (see isUniqueViolation), which rolls the caller's transaction back.
 */
export async function updateProfile(
  tx: DbOrTx,
  id: string,
  fields: ProfileFields,
  now: Date,
  event: NewSecurityEvent,
): Promise<ProfileBefore | null> {
  const [before] = await tx
    .select({
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      phoneNumber: users.phoneNumber,
      department: users.department,
      facility: users.facility,
      address: users.address,
    })
    .from(users)
    .where(eq(users.id, id))
    .for('update');
  if (!before) return null;
  await tx
    .update(users)
    .set({ ...fields, updatedAt: now })
    .where(eq(users.id, id));
  await tx.insert(securityEvents).values({ ...event, userId: id });
  return before as ProfileBefore;
}

export function listPendingUsers(db: Db): Promise<UserWithRole[]> {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.accountStatus, 'pending'))
    .orderBy(asc(users.createdAt), asc(users.id));
}

export function listActiveUsers(db: Db, limit: number, offset: number): Promise<UserWithRole[]> {
  return db
    .select(userColumns)
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.isActive, true), eq(users.accountStatus, 'active')))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(limit)
    .offset(offset);
}

/** Staff accounts per status; system clients' accounts (decision 020) are not staff and are not counted. */
export function countUsersByStatus(db: Db): Promise<{ status: string; n: number }[]> {
  return db
    .select({ status: users.accountStatus, n: sql<number>`count(*)::int` })
    .from(users)
    .where(ne(users.accountStatus, SYSTEM_ACCOUNT_STATUS))
    .groupBy(users.accountStatus);
}

export interface RoleCount {
  roleId: number;
  name: string;
  displayName: string;
  total: number;
  active: number;
}

export function countUsersByRole(db: Db): Promise<RoleCount[]> {
  return db
    .select({
      roleId: roles.id,
      name: roles.name,
      displayName: roles.displayName,
      total: sql<number>`count(${users.id})::int`,
      active: sql<number>`(count(${users.id}) FILTER (WHERE ${users.isActive} AND ${users.accountStatus} = 'active'))::int`,
    })
    .from(roles)
    .leftJoin(users, and(eq(users.roleId, roles.id), ne(users.accountStatus, SYSTEM_ACCOUNT_STATUS)))
    .where(ne(roles.id, SYSTEM_CLIENT_ROLE_ID))
    .groupBy(roles.id)
    .orderBy(asc(roles.id));
}

export type PendingChange = 'done' | 'missing' | 'not_pending';

/** Why a change to a pending registration did not happen. */
async function whyNotPending(db: DbOrTx, id: string): Promise<PendingChange> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, id));
  return row ? 'not_pending' : 'missing';
}

/** Activates a pending registration (only while it is pending), with its security event. */
export async function approvePendingUser(
  tx: DbOrTx,
  id: string,
  approverId: string,
  now: Date,
  event: NewSecurityEvent,
): Promise<PendingChange> {
  const done = await tx
    .update(users)
    .set({ isActive: true, accountStatus: 'active', activatedAt: now, activatedBy: approverId, updatedAt: now })
    .where(and(eq(users.id, id), eq(users.accountStatus, 'pending')))
    .returning({ id: users.id });
  if (done.length === 0) return whyNotPending(tx, id);
  await tx.insert(securityEvents).values({ ...event, userId: id });
  return 'done';
}

export interface DeletedRegistration {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  roleId: number | null;
}

/** Deletes a pending registration (only while it is pending), with its security event; answers the deleted row. */
export async function deletePendingUser(
  tx: DbOrTx,
  id: string,
  event: NewSecurityEvent,
): Promise<DeletedRegistration | Exclude<PendingChange, 'done'>> {
  const [deleted] = await tx
    .delete(users)
    .where(and(eq(users.id, id), eq(users.accountStatus, 'pending')))
    .returning({ id: users.id, email: users.email, firstName: users.firstName, lastName: users.lastName, roleId: users.roleId });
  if (!deleted) return (await whyNotPending(tx, id)) as Exclude<PendingChange, 'done'>;
  await tx.insert(securityEvents).values({ ...event, userId: id });
  return deleted;
}
