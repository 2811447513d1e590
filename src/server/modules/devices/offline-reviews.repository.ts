// The review tasks offline sync opens (issue 27, decision 061): one per offline write that needs a person's look (the
// record changed since the device saw it, warnings nobody confirmed, a likely duplicate registration), opened in the
// write's own transaction and found again by the write's (user, clientId) when the same write is sent again.
import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { OfflineReview, OfflineReviewReason } from '../../../contracts/offline';
import type { DbOrTx } from '../../db/client';
import { offlineReviews, users } from '../../db/schema';

export interface NewReview {
  reason: OfflineReviewReason;
  patientId: number;
  kind: string | null;
  rowId: number | null;
  warnings: readonly string[];
  userId: string;
  clientId: string;
  deviceId: string;
  deviceTime: Date;
  now: Date;
}

/** Opens a review task; its id. */
export async function insertReview(tx: DbOrTx, review: NewReview): Promise<number> {
  const [row] = await tx
    .insert(offlineReviews)
    .values({
      reason: review.reason,
      patientId: review.patientId,
      kind: review.kind,
      rowId: review.rowId,
      warnings: [...review.warnings],
      userId: review.userId,
      clientId: review.clientId,
      deviceId: review.deviceId,
      deviceTime: review.deviceTime,
      createdAt: review.now,
    })
    .returning({ id: offlineReviews.id });
  return row!.id;
}

/** The review tasks the given writes of this user opened, by clientId. */
export async function reviewsOfWrites(tx: DbOrTx, userId: string, clientIds: readonly string[]): Promise<Map<string, number>> {
  if (clientIds.length === 0) return new Map();
  const found = await tx
    .select({ clientId: offlineReviews.clientId, id: offlineReviews.id })
    .from(offlineReviews)
    .where(and(eq(offlineReviews.userId, userId), inArray(offlineReviews.clientId, [...clientIds])));
  return new Map(found.map((r) => [r.clientId, r.id]));
}

const columns = {
  id: offlineReviews.id,
  reason: offlineReviews.reason,
  patientId: offlineReviews.patientId,
  kind: offlineReviews.kind,
  rowId: offlineReviews.rowId,
  deviceId: offlineReviews.deviceId,
  userName: sql<string>`coalesce(${users.firstName} || ' ' || ${users.lastName}, ${offlineReviews.userId})`,
  deviceTime: offlineReviews.deviceTime,
  createdAt: offlineReviews.createdAt,
  closedAt: offlineReviews.closedAt,
  warnings: offlineReviews.warnings,
};
type ReviewRow = Omit<OfflineReview, 'deviceTime' | 'createdAt' | 'closedAt'> & {
  deviceTime: Date;
  createdAt: Date;
  closedAt: Date | null;
};

const present = (r: ReviewRow): OfflineReview => ({
  ...r,
  deviceTime: r.deviceTime.toISOString(),
  createdAt: r.createdAt.toISOString(),
  closedAt: r.closedAt?.toISOString() ?? null,
});

/** Review tasks, newest first, with ids below `beforeId`; `limit` rows. */
export async function selectReviews(tx: DbOrTx, beforeId: number | null, limit: number): Promise<OfflineReview[]> {
  const found = await tx
    .select(columns)
    .from(offlineReviews)
    .leftJoin(users, eq(users.id, offlineReviews.userId))
    .where(beforeId === null ? undefined : lt(offlineReviews.id, beforeId))
    .orderBy(desc(offlineReviews.id))
    .limit(limit);
  return (found as ReviewRow[]).map(present);
}

/** One review task, or null. */
export async function selectReview(tx: DbOrTx, id: number): Promise<OfflineReview | null> {
  const [found] = await tx
    .select(columns)
    .from(offlineReviews)
    .leftJoin(users, eq(users.id, offlineReviews.userId))
    .where(eq(offlineReviews.id, id));
  return found ? present(found as ReviewRow) : null;
}

/** Closes an open review task; false when it is unknown or closed already. */
export async function closeReviewRow(tx: DbOrTx, id: number, by: string, note: string, now: Date): Promise<boolean> {
  const rows = await tx
    .update(offlineReviews)
    .set({ closedAt: now, closedBy: by, closeNote: note || null })
    .where(and(eq(offlineReviews.id, id), sql`${offlineReviews.closedAt} IS NULL`))
    .returning({ id: offlineReviews.id });
  return rows.length > 0;
}
