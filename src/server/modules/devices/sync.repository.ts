// Offline sync's own reads and writes (issue 27, decision 061): what a batch's clientIds already stand for (an add's
// Idempotency-Key, a registration, an open or a discard), in one read each per batch; the claims that make each write
// happen once (a second claim of the same key waits on the first one's primary key, then finds it taken); and the
// conflict check of an entry (a row of its kind changed by someone else since the device's cursor).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { kindContract, type RecordKind } from '../../../contracts/kinds';
import type { DbOrTx } from '../../db/client';
import { personIdsSql, survivorIdSql } from '../../db/joined-patients';
import { accessGrants, idempotencyKeys, offlineEvents, offlineRegistrations } from '../../db/schema';
import { serverKind } from '../records/kinds';

const rows = async <T>(tx: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> =>
  ((await tx.execute(query)) as unknown as { rows: T[] }).rows;

/** An array as one bound parameter in PostgreSQL's array literal syntax (all values are UUIDs, numbers or ISO times). */
const arrayOf = (values: readonly (string | number)[]): string => `{${values.join(',')}}`;

export interface KeyedAdd {
  requestHash: string;
  kind: string;
  itemId: number;
}

/** The adds this user's keys (clientIds) stand for. */
export async function keyedAdds(tx: DbOrTx, userId: string, keys: readonly string[]): Promise<Map<string, KeyedAdd>> {
  if (keys.length === 0) return new Map();
  const found = await tx
    .select({
      key: idempotencyKeys.key,
      requestHash: idempotencyKeys.requestHash,
      kind: idempotencyKeys.kind,
      itemId: idempotencyKeys.itemId,
    })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), inArray(idempotencyKeys.key, [...keys])));
  return new Map(found.map(({ key, ...add }) => [key, add]));
}

/** The patient an add's row now belongs to (a join moves rows to the survivor), or null when it is gone. */
export async function rowPatient(tx: DbOrTx, kind: RecordKind, itemId: number): Promise<number | null> {
  const table = serverKind(kind).table;
  const [row] = (await tx.select({ patientId: table.patientId }).from(table).where(eq(table.id, itemId))) as { patientId: number }[];
  return row?.patientId ?? null;
}

export interface Registration {
  /** The record the registered patient now is (a join moves the row to the survivor). */
  patientId: number;
  reviewId: number | null;
}

/** The patients this user registered offline under the given clientIds. */
export async function registrationsOf(tx: DbOrTx, userId: string, clientIds: readonly string[]): Promise<Map<string, Registration>> {
  if (clientIds.length === 0) return new Map();
  const found = await tx
    .select({ clientId: offlineRegistrations.clientId, patientId: offlineRegistrations.patientId, reviewId: offlineRegistrations.reviewId })
    .from(offlineRegistrations)
    .where(and(eq(offlineRegistrations.userId, userId), inArray(offlineRegistrations.clientId, [...clientIds])));
  return new Map(found.map(({ clientId, ...r }) => [clientId, r]));
}

/** Claims a registration's clientId for the patient just stored; false when it was taken (the caller rolls back). */
export async function claimRegistration(
  tx: DbOrTx,
  claim: { userId: string; clientId: string; patientId: number; deviceId: string; deviceTime: Date; now: Date },
): Promise<boolean> {
  const claimed = await tx
    .insert(offlineRegistrations)
    .values({ ...claim, createdAt: claim.now })
    .onConflictDoNothing()
    .returning({ patientId: offlineRegistrations.patientId });
  return claimed.length > 0;
}

export async function setRegistrationReview(tx: DbOrTx, userId: string, clientId: string, reviewId: number): Promise<void> {
  await tx
    .update(offlineRegistrations)
    .set({ reviewId })
    .where(and(eq(offlineRegistrations.userId, userId), eq(offlineRegistrations.clientId, clientId)));
}

/** The grant of the user who registered a patient offline: consent (the patient was there), from the device's time. */
export async function insertRegistrationGrant(
  tx: DbOrTx,
  grant: { userId: string; patientId: number; grantedAt: Date; expiresAt: Date },
): Promise<void> {
  await tx.insert(accessGrants).values({ ...grant, consent: true, reason: null });
}

export type EventType = 'open' | 'open-refused' | 'discard';

/** Which of this user's clientIds are in the ledger as each type. */
export async function eventsOf(tx: DbOrTx, userId: string, clientIds: readonly string[]): Promise<Map<string, Set<EventType>>> {
  const out = new Map<string, Set<EventType>>();
  if (clientIds.length === 0) return out;
  const found = await tx
    .select({ clientId: offlineEvents.clientId, type: offlineEvents.type })
    .from(offlineEvents)
    .where(and(eq(offlineEvents.userId, userId), inArray(offlineEvents.clientId, [...clientIds])));
  for (const { clientId, type } of found) {
    const types = out.get(clientId) ?? new Set<EventType>();
    types.add(type as EventType);
    out.set(clientId, types);
  }
  return out;
}

export interface NewEvent {
  clientId: string;
  patientId: number | null;
  kind: string | null;
  deviceTime: Date | null;
}

/** Writes ledger rows of one type; the clientIds newly written (a row there already, or claimed meanwhile, is not). */
export async function claimEvents(
  tx: DbOrTx,
  who: { userId: string; deviceId: string; now: Date },
  type: EventType,
  events: readonly NewEvent[],
): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const claimed = await tx
    .insert(offlineEvents)
    .values(events.map((e) => ({ ...e, userId: who.userId, deviceId: who.deviceId, type, createdAt: who.now })))
    .onConflictDoNothing()
    .returning({ clientId: offlineEvents.clientId });
  return new Set(claimed.map((c) => c.clientId));
}

/**
 * For each offline open, whether this user held a grant for its patient (or the record it was joined into since: a
 * join moves grants) whose window met [deviceTime - skew, deviceTime + skew]. One statement for the batch.
 */
export async function opensGranted(
  tx: DbOrTx,
  userId: string,
  opens: readonly { clientId: string; patientId: number; deviceTime: Date }[],
  skewMs: number,
): Promise<Set<string>> {
  if (opens.length === 0) return new Set();
  const found = await rows<{ clientId: string }>(
    tx,
    sql`SELECT o.client_id::text AS "clientId"
          FROM unnest(${arrayOf(opens.map((o) => o.clientId))}::uuid[], ${arrayOf(opens.map((o) => o.patientId))}::int[],
                      ${arrayOf(opens.map((o) => `"${o.deviceTime.toISOString()}"`))}::timestamptz[]) AS o(client_id, patient_id, at)
         WHERE EXISTS (SELECT 1 FROM access_grants AS g
                        WHERE g.user_id = ${userId}
                          AND g.patient_id IN (o.patient_id, ${survivorIdSql(sql`o.patient_id`)})
                          AND g.granted_at <= o.at + ${`${skewMs} milliseconds`}::interval
                          AND g.expires_at > o.at - ${`${skewMs} milliseconds`}::interval)`,
  );
  return new Set(found.map((r) => r.clientId));
}

/**
 * Whether a row of the kind on this patient, other than `exceptId`, was created or changed since the cursor's
 * transaction (`since`: its id; null: the device saw none of the record, so any row counts) and has a change by
 * someone else than `userId` in the audit trail (its CREATE, UPDATE or DELETE rows, found on the (patient_id,
 * timestamp) index under the ids of the person: a join moves rows but never rewrites audit rows).
 */
export async function changedSinceSeen(
  tx: DbOrTx,
  kind: RecordKind,
  patientId: number,
  since: string | null,
  userId: string,
  exceptId: number,
): Promise<boolean> {
  const table = serverKind(kind).table;
  const [row] = await rows<{ changed: boolean }>(
    tx,
    sql`SELECT EXISTS (
          SELECT 1 FROM ${table} AS r
           WHERE r.patient_id = ${patientId} AND r.id <> ${exceptId}
                 ${since === null ? sql`` : sql`AND r.change_xid >= ${since}::xid8`}
             AND EXISTS (SELECT 1 FROM audit_logs AS a
                          WHERE a.patient_id = ANY(${personIdsSql(sql`${patientId}::int`)})
                            AND a.resource_type = ${kindContract(kind).resourceType} AND a.resource_id = r.id::text
                            AND a.action IN ('CREATE', 'UPDATE', 'DELETE') AND a.user_id <> ${userId})) AS changed`,
  );
  return row!.changed;
}
