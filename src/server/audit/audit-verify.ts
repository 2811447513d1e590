// Walks the audit hash chain in id order, in batches (memory stays flat at any size), and names the
// first row that was changed, inserted or deleted.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { auditRowHash, auditTimestampText, GENESIS_HASH, type AuditChainRow } from './audit-hash';

export type AuditVerifyResult =
  | { ok: true; rows: number; lastId: number; lastHash: string }
  | { ok: false; firstBadId: number; reason: string };

export interface VerifyOptions {
  /** Called after each batch with the number of rows checked so far and the total to check. */
  onProgress?: (checked: number, total: number) => void;
  batchSize?: number;
  /**
   * A row id and hash recorded from an earlier run (published or kept outside the database). Anyone
   * who can write the table can rebuild the whole chain; the anchor proves rows 1..id are unchanged.
   */
  anchor?: { id: number; hash: string };
}

interface StoredRow extends AuditChainRow {
  prevHash: string;
  hash: string;
}

type Rows<T> = { rows: T[] };

async function fetchBatch(db: DbOrTx, afterId: number, upToId: number, limit: number): Promise<StoredRow[]> {
  const result = await db.execute(sql`
    SELECT id, user_id AS "userId", user_name AS "userName", action, resource_type AS "resourceType",
      resource_id AS "resourceId", patient_id AS "patientId", old_values AS "oldValues",
      new_values AS "newValues", ip_address AS "ipAddress", user_agent AS "userAgent",
      ${auditTimestampText(sql`"timestamp"`)} AS "timestamp", session_id AS "sessionId", facility,
      compliance_flags AS "complianceFlags", prev_hash AS "prevHash", hash
    FROM audit_logs
    WHERE id > ${afterId} AND id <= ${upToId}
    ORDER BY id
    LIMIT ${limit}`);
  return (result as unknown as Rows<StoredRow>).rows;
}

async function readHead(db: DbOrTx): Promise<{ lastId: number; lastHash: string; maxId: number } | null> {
  // One statement, one snapshot: a row beyond the head is then truly outside the chain, not a concurrent write.
  const result = await db.execute(sql`
    SELECT h.last_id AS "lastId", h.last_hash AS "lastHash",
      coalesce((SELECT max(id) FROM audit_logs), 0) AS "maxId"
    FROM audit_chain_head h WHERE h.id = 1`);
  return (result as unknown as Rows<{ lastId: number; lastHash: string; maxId: number }>).rows[0] ?? null;
}

const bad = (firstBadId: number, reason: string): AuditVerifyResult => ({ ok: false, firstBadId, reason });

/** Which row a broken link points at: the row itself, or the one before it. */
function diagnoseLink(row: StoredRow, expectedPrev: string, hashBeforePrev: string | null): AuditVerifyResult {
  if (hashBeforePrev !== null && row.prevHash === hashBeforePrev) {
    return bad(row.id - 1, `row ${row.id - 1} was inserted into the chain`);
  }
  if (auditRowHash(expectedPrev, row) === row.hash) {
    return bad(row.id, `row ${row.id} has a changed prev_hash`);
  }
  if (row.id > 1 && auditRowHash(row.prevHash, row) === row.hash) {
    return bad(row.id - 1, `row ${row.id - 1} was changed and its hash recomputed (row ${row.id} no longer links to it)`);
  }
  return bad(row.id, `row ${row.id} does not link to the row before it (changed)`);
}

/** Checks rows 1..head in order; rows appended while it runs are left for the next run. */
export async function verifyAuditChain(db: DbOrTx, options: VerifyOptions = {}): Promise<AuditVerifyResult> {
  const batchSize = options.batchSize ?? 5_000;
  const { anchor } = options;
  const head = await readHead(db);
  if (!head) return bad(0, 'the audit chain head row is missing');
  if (anchor && anchor.id > head.lastId) return bad(head.lastId + 1, `the chain ends before the anchor row ${anchor.id} (deleted)`);

  let prevHash = GENESIS_HASH;
  let hashBeforePrev: string | null = null;
  let expectedId = 1;
  let failure: AuditVerifyResult | null = null;
  // Fetch the next batch while this one is hashed.
  let pending = fetchBatch(db, 0, head.lastId, batchSize);
  while (!failure) {
    const batch = await pending;
    if (batch.length === 0) break;
    pending = fetchBatch(db, batch[batch.length - 1]!.id, head.lastId, batchSize);
    for (const row of batch) {
      if (row.id !== expectedId) failure = bad(expectedId, `row ${expectedId} is missing (deleted, or its id was changed)`);
      else if (row.prevHash !== prevHash) failure = diagnoseLink(row, prevHash, hashBeforePrev);
      else if (auditRowHash(prevHash, row) !== row.hash) failure = bad(row.id, `row ${row.id} does not match its hash (changed)`);
      else if (anchor && row.id === anchor.id && row.hash !== anchor.hash) {
        failure = bad(row.id, `row ${row.id} differs from the anchor recorded earlier (the chain was rebuilt)`);
      }
      if (failure) break;
      hashBeforePrev = prevHash;
      prevHash = row.hash;
      expectedId++;
    }
    options.onProgress?.(expectedId - 1, head.lastId);
  }
  await pending.catch(() => undefined);
  if (failure) return failure;
  if (expectedId - 1 < head.lastId) return bad(expectedId, `row ${expectedId} and later are missing (deleted)`);
  if (prevHash !== head.lastHash) return bad(head.lastId, `row ${head.lastId} does not match the chain head (changed)`);
  if (head.maxId > head.lastId) {
    return bad(head.lastId + 1, `row ${head.lastId + 1} and later are not part of the chain (inserted)`);
  }
  return { ok: true, rows: head.lastId, lastId: head.lastId, lastHash: prevHash };
}
