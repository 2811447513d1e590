import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { securityEvents, users } from '../../db/schema';

const SETUP_LOCK = 727_002; // serializes concurrent first-time setups

export async function countUsers(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
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

/** Creates the first administrator, or returns null when any user already exists (checked under a lock). */
export async function createFirstAdmin(db: Db, admin: NewAdmin, ipAddress: string): Promise<string | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETUP_LOCK})`);
    const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
    if ((row?.n ?? 0) > 0) return null;
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
    return id;
  });
}
