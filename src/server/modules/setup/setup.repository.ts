import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import type { Db, DbOrTx } from '../../db/client';
import { securityEvents, users } from '../../db/schema';

const SETUP_LOCK = 727_002; // serializes concurrent first-time setups

/**
 * Active system administrators. Setup is needed while there are none: a pending registration (which anyone can
 * submit) must not block it (DESIGN.md §4, issue 10 item 5).
 */
export async function countActiveAdmins(db: DbOrTx): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.roleId, ROLE_IDS.systemAdmin), eq(users.isActive, true)));
  return row?.n ?? 0;
}

/** Whether an account, pending or not, already uses this email. */
async function emailInUse(tx: DbOrTx, email: string): Promise<boolean> {
  const [row] = await tx.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return Boolean(row);
}

export interface NewAdmin {
  firstName: string;
  lastName: string;
  email: string;
  passwordHash: string;
  facility: string;
  department: string;
  roleId: number;
}

/**
 * Creates the first administrator under a lock: 'done' when an active administrator already exists,
 * 'email-taken' when another account (e.g. a pending registration) has the email.
 */
export async function createFirstAdmin(db: Db, admin: NewAdmin, ipAddress: string): Promise<{ userId: string } | 'done' | 'email-taken'> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`);
    if ((await countActiveAdmins(tx)) > 0) return 'done';
    if (await emailInUse(tx, admin.email)) return 'email-taken';
    const id = randomUUID();
    const now = new Date();
    await tx.insert(users).values({
      id,
      ...admin,
      isActive: true,
      accountStatus: 'active',
      activatedAt: now,
      activatedBy: id,
    });
    await tx.insert(securityEvents).values({
      userId: id,
      eventType: 'SETUP_ADMIN_CREATED',
      severity: 'medium',
      description: 'First-time setup created the system administrator',
      ipAddress,
      facility: admin.facility,
    });
    return { userId: id };
  });
}
