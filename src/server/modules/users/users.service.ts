// Staff accounts: the signed-in user, My Profile, and Administration: Manage Users (SPEC §2, §7; DESIGN.md §4-5).
import type { CurrentUser } from '../../../contracts/auth';
import type { ActiveUser, PendingUser, ProfileUpdateInput, UserStats } from '../../../contracts/users';
import type { RequestMeta, StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { Db } from '../../db/client';
import { AppError, unauthenticated } from '../../errors/app-error';
import {
  approvePendingUser,
  countUsersByRole,
  countUsersByStatus,
  deletePendingUser,
  emailTaken,
  findLoginCandidate,
  findUserWithRole,
  insertUser,
  isUniqueViolation,
  listActiveUsers,
  listPendingUsers,
  updateProfile,
  type LoginCandidate,
  type NewSecurityEvent,
  type NewUser,
  type UserWithRole,
} from './users.repository';
import { findPendingNameChange, upsertPendingNameChange } from './name-changes.repository';

export type { LoginCandidate, NewSecurityEvent, NewUser };

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);
const roleOf = (u: UserWithRole) => (u.roleName && u.roleDisplayName ? { name: u.roleName, displayName: u.roleDisplayName } : null);

export function toCurrentUser(u: UserWithRole, permissions: Iterable<string>): CurrentUser {
  return {
    id: u.id,
    email: u.email,
    firstName: u.firstName,
    lastName: u.lastName,
    phoneNumber: u.phoneNumber,
    department: u.department,
    facility: u.facility,
    roleId: u.roleId,
    role: roleOf(u),
    isActive: u.isActive,
    accountStatus: u.accountStatus,
    profileImageUrl: u.profileImageUrl,
    licenseNumber: u.licenseNumber,
    address: u.address,
    lastLoginAt: iso(u.lastLoginAt),
    createdAt: u.createdAt.toISOString(),
    permissions: [...permissions].sort(),
  };
}

const toPendingUser = (u: UserWithRole): PendingUser => ({
  id: u.id,
  firstName: u.firstName,
  lastName: u.lastName,
  email: u.email,
  department: u.department,
  facility: u.facility,
  role: roleOf(u),
  createdAt: u.createdAt.toISOString(),
});

const toActiveUser = (u: UserWithRole): ActiveUser => ({
  ...toPendingUser(u),
  roleId: u.roleId,
  phoneNumber: u.phoneNumber,
  activatedAt: iso(u.activatedAt),
  lastLoginAt: iso(u.lastLoginAt),
});

const event = (
  meta: RequestMeta,
  eventType: string,
  severity: string,
  description: string,
  metadata: Record<string, unknown>,
  facility: string | null,
): NewSecurityEvent => ({
  eventType,
  severity,
  description,
  metadata,
  facility,
  ipAddress: meta.ip,
  userAgent: meta.userAgent,
});

/** Inserts a user with the event recording it; null when the e-mail is taken. (Registration, fixtures.) */
export const createUser = (db: Db, user: NewUser, record?: NewSecurityEvent): Promise<string | null> => insertUser(db, user, record);

export const loginCandidate = (db: Db, email: string): Promise<LoginCandidate | null> => findLoginCandidate(db, email);

/** The user object of GET /api/auth/user, with the actor's permissions as read on this request. */
export async function getCurrentUser(db: Db, actor: StaffActor): Promise<CurrentUser> {
  const user = await findUserWithRole(db, actor.userId);
  if (!user) throw unauthenticated();
  const pending = await findPendingNameChange(db, actor.userId);
  const pendingName = pending
    ? { firstName: pending.firstName, lastName: pending.lastName, requestedAt: pending.requestedAt.toISOString() }
    : null;
  return { ...toCurrentUser(user, actor.permissions), pendingName };
}

export const ownProfileOnly = (): AppError => new AppError('OWN_PROFILE_ONLY', 'You can only edit your own profile');

/** PATCH /api/users/{id}: the signed-in user's own profile, exactly the listed fields. */
export async function updateOwnProfile(scope: RequestScope<StaffActor>, id: string, input: ProfileUpdateInput): Promise<CurrentUser> {
  const { db, actor, meta } = scope;
  if (id !== actor.userId) throw ownProfileOnly();
  const email = input.email.toLowerCase();
  const emailInUse = new AppError('EMAIL_IN_USE', 'An account with this email already exists');
  if (await emailTaken(db, email, actor.userId)) throw emailInUse;
  // A new name waits for an administrator's approval (issue 21 item 10): the profile keeps the current one meanwhile,
  // so nobody takes another clinician's name into a patient's access history on their own word.
  const renamed = input.firstName !== actor.firstName || input.lastName !== actor.lastName;
  const fields = { ...input, email, firstName: actor.firstName, lastName: actor.lastName };
  const record = event(meta, 'PROFILE_UPDATED', 'low', 'Staff user updated their profile', { fields: Object.keys(fields) }, input.facility);
  try {
    await inAuditedTransaction(scope, async (ctx) => {
      const before = await updateProfile(ctx.tx, id, fields, ctx.now, record);
      if (!before) throw unauthenticated();
      const requested = { firstName: input.firstName, lastName: input.lastName };
      if (renamed) {
        await upsertPendingNameChange(
          ctx.tx,
          { userId: id, oldFirstName: before.firstName, oldLastName: before.lastName, ...requested, requestedAt: ctx.now },
          event(meta, 'NAME_CHANGE_REQUESTED', 'medium', 'Staff user asked to change their name', { requested }, input.facility),
        );
      }
      return ctx.audited(null, {
        action: 'UPDATE',
        resourceType: 'USER',
        resourceId: id,
        oldValues: before,
        newValues: renamed ? { ...fields, requestedName: requested } : fields,
      });
    });
  } catch (err) {
    // Taken between the check above and the update: the unique index has the last word.
    if (isUniqueViolation(err)) throw emailInUse;
    throw err;
  }
  return getCurrentUser(db, actor);
}

export async function pendingUsers(db: Db): Promise<PendingUser[]> {
  return (await listPendingUsers(db)).map(toPendingUser);
}

export async function activeUsers(db: Db, limit: number, offset: number): Promise<ActiveUser[]> {
  return (await listActiveUsers(db, limit, offset)).map(toActiveUser);
}

export async function userStats(db: Db): Promise<UserStats> {
  const [byStatusRows, byRole] = await Promise.all([countUsersByStatus(db), countUsersByRole(db)]);
  const byStatus: Record<string, number> = { active: 0, pending: 0 };
  for (const row of byStatusRows) byStatus[row.status] = row.n;
  const total = byStatusRows.reduce((sum, row) => sum + row.n, 0);
  return { total, byStatus, byRole };
}

const notPending = (): AppError => new AppError('USER_NOT_PENDING', 'This user is not awaiting approval');
const userNotFound = (): AppError => new AppError('USER_NOT_FOUND', 'User not found');

/** Activates a pending registration: isActive, accountStatus 'active', activatedAt, activatedBy. */
export async function approveUser(scope: RequestScope<StaffActor>, id: string): Promise<ActiveUser> {
  const { actor, meta } = scope;
  if (id === actor.userId) throw new AppError('OWN_ACCOUNT_DECISION', 'You cannot approve your own account');
  const record = event(meta, 'USER_APPROVED', 'medium', 'Registration approved', { approvedBy: actor.userId }, actor.facility);
  return inAuditedTransaction(scope, async (ctx) => {
    const result = await approvePendingUser(ctx.tx, id, actor.userId, ctx.now, record);
    if (result === 'missing') throw userNotFound();
    if (result === 'not_pending') throw notPending();
    const user = await findUserWithRole(ctx.tx, id);
    if (!user) throw userNotFound();
    return ctx.audited(toActiveUser(user), {
      action: 'UPDATE',
      resourceType: 'USER',
      resourceId: id,
      newValues: { accountStatus: 'active', isActive: true },
    });
  });
}

/** Rejects a pending registration: the row is deleted. */
export async function rejectUser(scope: RequestScope<StaffActor>, id: string): Promise<void> {
  const { actor, meta } = scope;
  if (id === actor.userId) throw new AppError('OWN_ACCOUNT_DECISION', 'You cannot reject your own account');
  const record = event(meta, 'USER_REJECTED', 'medium', 'Registration rejected', { rejectedBy: actor.userId }, actor.facility);
  await inAuditedTransaction(scope, async (ctx) => {
    const result = await deletePendingUser(ctx.tx, id, record);
    if (result === 'missing') throw userNotFound();
    if (result === 'not_pending') throw notPending();
    return ctx.audited(null, { action: 'DELETE', resourceType: 'USER', resourceId: id, oldValues: result });
  });
}
