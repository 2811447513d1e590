// The devices offline mode is switched on for (issue 27, decision 061): one row per browser of one staff member. A
// device's own requests touch its last contact in the statement that finds it, whatever they go on to do.
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { offlineDevices, users } from '../../db/schema';

export interface DeviceRow {
  id: string;
  userId: string;
  userName: string;
  facility: string | null;
  label: string;
  createdAt: Date;
  lastContactAt: Date;
  revokedAt: Date | null;
}

const columns = {
  id: offlineDevices.id,
  userId: offlineDevices.userId,
  userName: sql<string>`${users.firstName} || ' ' || ${users.lastName}`,
  facility: offlineDevices.facility,
  label: offlineDevices.label,
  createdAt: offlineDevices.createdAt,
  lastContactAt: offlineDevices.lastContactAt,
  revokedAt: offlineDevices.revokedAt,
};

export async function insertDevice(
  tx: DbOrTx,
  device: { id: string; userId: string; facility: string | null; label: string; now: Date },
): Promise<void> {
  await tx.insert(offlineDevices).values({
    id: device.id,
    userId: device.userId,
    facility: device.facility,
    label: device.label,
    createdAt: device.now,
    lastContactAt: device.now,
  });
}

/** One device with its user's name, or null. */
export async function selectDevice(tx: DbOrTx, id: string): Promise<DeviceRow | null> {
  const [row] = await tx
    .select(columns)
    .from(offlineDevices)
    .innerJoin(users, eq(users.id, offlineDevices.userId))
    .where(eq(offlineDevices.id, id));
  return row ?? null;
}

/** Every device, newest first, after the cursor's (created, id); `limit` rows. */
export async function selectDevices(tx: DbOrTx, after: { createdAt: Date; id: string } | null, limit: number): Promise<DeviceRow[]> {
  return tx
    .select(columns)
    .from(offlineDevices)
    .innerJoin(users, eq(users.id, offlineDevices.userId))
    .where(
      after
        ? or(
            lt(offlineDevices.createdAt, after.createdAt),
            and(eq(offlineDevices.createdAt, after.createdAt), lt(offlineDevices.id, after.id)),
          )
        : undefined,
    )
    .orderBy(desc(offlineDevices.createdAt), desc(offlineDevices.id))
    .limit(limit);
}

/**
 * A device's own request: its last contact set to `now` (never moved back), in the statement that finds it; null when
 * the device is unknown or another user's (the caller answers 404 either way). Its revocation, or null.
 */
export async function touchOwnDevice(tx: DbOrTx, id: string, userId: string, now: Date): Promise<{ revokedAt: Date | null } | null> {
  const [row] = await tx
    .update(offlineDevices)
    .set({ lastContactAt: sql`greatest(${offlineDevices.lastContactAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(offlineDevices.id, id), eq(offlineDevices.userId, userId)))
    .returning({ revokedAt: offlineDevices.revokedAt });
  return row ?? null;
}

/** Revokes a device not revoked yet; false when there is none such (unknown, or revoked before). */
export async function revokeDeviceRow(tx: DbOrTx, id: string, by: string, reason: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(offlineDevices)
    .set({ revokedAt: now, revokedBy: by, revokeReason: reason || null })
    .where(and(eq(offlineDevices.id, id), isNull(offlineDevices.revokedAt)))
    .returning({ id: offlineDevices.id });
  return rows.length > 0;
}
