// Reads a staff actor on every request (DESIGN.md §4): one query by primary key. Permissions are the role's
// (when the role is active) plus the user's grants, minus the user's revocations.
import { eq, sql } from 'drizzle-orm';
import { PERMISSIONS, type Permission } from '../../contracts/constants';
import type { Db } from '../db/client';
import { roles, users } from '../db/schema';
import type { StaffActor } from './actor';

const known = new Set<string>(PERMISSIONS);

/** The staff actor for this user, or null when the user is missing, not active, or not approved. */
export async function loadStaffActor(db: Db, userId: string): Promise<StaffActor | null> {
  const [row] = await db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      roleId: users.roleId,
      roleName: roles.name,
      roleDisplayName: roles.displayName,
      facility: users.facility,
      department: users.department,
      isActive: users.isActive,
      accountStatus: users.accountStatus,
      permissions: sql<string[]>`(
        SELECT coalesce(json_agg(p.name), '[]'::json) FROM permissions p
        WHERE (p.id IN (SELECT rp.permission_id FROM role_permissions rp WHERE rp.role_id = ${users.roleId} AND ${roles.isActive})
            OR p.id IN (SELECT up.permission_id FROM user_permissions up WHERE up.user_id = ${users.id} AND up.is_granted))
          AND p.id NOT IN (SELECT up.permission_id FROM user_permissions up WHERE up.user_id = ${users.id} AND NOT up.is_granted)
      )`,
    })
    .from(users)
    .leftJoin(roles, eq(roles.id, users.roleId))
    .where(eq(users.id, userId));
  if (!row || !row.isActive || row.accountStatus !== 'active') return null;
  const { isActive: _a, accountStatus: _s, permissions, ...rest } = row;
  return {
    kind: 'staff',
    ...rest,
    permissions: new Set(permissions.filter((p): p is Permission => known.has(p))),
  };
}
