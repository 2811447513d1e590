// Walks every audit hash chain, reading the log once in id order (ids rise with positions within a chain:
// nhr_audit_append takes the id under the chain's lock), in batches (memory stays flat at any size), on one
// snapshot, and names the first row (lowest id) that was changed, inserted or deleted. A row with a payload hash
// (decision 042) must have its payload row; unless shredded, its payload must open with the payload key and hash to
// the chained payload_hash. Without the key only the payloads' presence is checked, and the result says so.
import { sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db/client';
import { missingAgainstCheckpoint, readLatestCheckpoint, type Checkpoint } from './audit-checkpoint';
import type { SecretBox } from '../security/secret-box';
import { auditRowHash, auditTimestampText, GENESIS_HASH, type AuditChainRow } from './audit-hash';
import type { ArchiveCheckpoint } from './audit-archive-file';
import { auditPayloadBox, openStoredPayload, payloadHashOf, type StoredPayload } from './audit-payload';

/** The payloads of the rows checked: how many rows have one, how many of those were shredded, whether they were opened. */
export interface PayloadSummary {
  stored: number;
  shredded: number;
  /** False when no payload key was available: only the presence of each payload row was checked. */
  opened: boolean;
}

export type AuditVerifyResult =
  | {
      ok: true;
      /** The rows checked: those still in the database. */
      rows: number;
      anchor: string;
      payloads: PayloadSummary;
      /** The latest month detached for archive (YYYY-MM), whose checkpoint the chains started from; null for none. */
      archivedThrough: string | null;
    }
  | { ok: false; firstBadId: number; reason: string };

export interface VerifyOptions {
  /** Called after each batch with the number of rows checked so far and the total to check. */
  onProgress?: (checked: number, total: number) => void;
  batchSize?: number;
  /**
   * The `anchor` of an earlier successful run (kept outside the database). Anyone who can write the
   * tables can rebuild a whole chain with valid hashes; the anchor proves the rows it covers are unchanged.
   */
  anchor?: string;
  /**
   * The chain count and heads to compare with (a signed digest's); by default the latest row of audit_checkpoints,
   * null for none. Missing chains and chains shorter than recorded are named; the row at each recorded position
   * must still carry the recorded hash.
   */
  checkpoint?: Checkpoint | null;
  /** The key that opens the payloads; by default this process's (configureAuditPayloads), null for none. */
  payloadKey?: SecretBox | null;
}

interface StoredRow extends AuditChainRow {
  prevHash: string;
  hash: string;
  /** Whether audit_payloads has a row for this id (read only for rows with a payload hash). */
  payloadRow: boolean;
  salt: string | null;
  ciphertext: string | null;
}
interface Head {
  chain: number;
  lastSeq: number;
  lastId: number | null;
  lastHash: string;
}
interface Problem {
  id: number;
  reason: string;
}
type Rows<T> = { rows: T[] };

/**
 * The columns of a stored audit row as the chain hashes them (AuditChainRow) with prevHash and hash, without payloadHash:
 * the verifier's select, and the archive's (audit-archive.ts).
 */
export const CHAIN_ROW_COLUMNS = sql`id::float8 AS id, chain, chain_seq::float8 AS "chainSeq", user_id AS "userId",
  user_name AS "userName", action, resource_type AS "resourceType", resource_id AS "resourceId", patient_id AS "patientId",
  old_values AS "oldValues", new_values AS "newValues", ip_address AS "ipAddress", user_agent AS "userAgent",
  ${auditTimestampText(sql`"timestamp"`)} AS "timestamp", session_id AS "sessionId", facility,
  compliance_flags AS "complianceFlags", prev_hash AS "prevHash", hash`;

// bigint columns come back as strings from node-postgres; float8 is exact below 2^53 and a number everywhere.
// `payloads` false: a database not yet migrated to 0043 (no payload_hash, no audit_payloads), checked as before.
async function fetchBatch(db: DbOrTx, afterId: number, limit: number, payloads: boolean): Promise<StoredRow[]> {
  const payloadColumns = payloads
    ? sql`payload_hash AS "payloadHash", p.audit_id IS NOT NULL AS "payloadRow", p.salt, p.ciphertext`
    : sql`NULL AS "payloadHash", false AS "payloadRow", NULL AS salt, NULL AS ciphertext`;
  const payloadJoin = payloads
    ? sql`LEFT JOIN audit_payloads p ON audit_logs.payload_hash IS NOT NULL AND p.audit_id = audit_logs.id`
    : sql``;
  const result = await db.execute(sql`
    SELECT ${CHAIN_ROW_COLUMNS}, ${payloadColumns}
    FROM audit_logs ${payloadJoin}
    WHERE audit_logs.id > ${afterId}
    ORDER BY audit_logs.id -- the column, not the float8 output alias (that would sort every remaining row)
    LIMIT ${limit}`);
  return (result as unknown as Rows<StoredRow>).rows;
}

/** Whether the database has audit payloads (migration 0043). */
async function hasPayloads(db: DbOrTx): Promise<boolean> {
  const result = await db.execute(sql`SELECT to_regclass('audit_payloads') IS NOT NULL AS "has"`);
  return (result as unknown as Rows<{ has: boolean }>).rows[0]?.has === true;
}

/** Payload rows whose audit row has no payload hash, or no longer exists (inserted, or their row deleted): the lowest id. */
async function strayPayload(db: DbOrTx, archivedMaxId: number): Promise<number | null> {
  // The payloads of archived rows stay (they are shredded as any other); their rows are in the archive file.
  const result = await db.execute(sql`
    SELECT min(p.audit_id)::float8 AS id FROM audit_payloads p
    WHERE p.audit_id > ${archivedMaxId} AND NOT EXISTS (SELECT 1 FROM audit_logs a WHERE a.id = p.audit_id AND a.payload_hash IS NOT NULL)`);
  return (result as unknown as Rows<{ id: number | null }>).rows[0]?.id ?? null;
}

/** The payload checks of the rows, in id order: counts, and the first problem. */
class PayloadCheck {
  stored = 0;
  shredded = 0;
  problem: Problem | null = null;

  constructor(readonly key: SecretBox | null) {}

  check(row: StoredRow): void {
    if (row.payloadHash === null || row.payloadHash === undefined) return;
    this.stored++;
    const stored: StoredPayload | null = row.payloadRow ? { salt: row.salt, ciphertext: row.ciphertext } : null;
    if (stored && (stored.ciphertext === null || stored.salt === null)) {
      this.shredded++;
      return;
    }
    if (this.problem) return; // rows come in id order: the first is the lowest
    if (!stored) {
      this.problem = { id: row.id, reason: `the payload of row ${row.id} is missing (deleted)` };
      return;
    }
    if (!this.key) return;
    const opened = openStoredPayload(stored, this.key);
    if (opened.state !== 'open') {
      this.problem = {
        id: row.id,
        reason: `the payload of row ${row.id} does not open with the audit payload key (changed, or sealed under another key)`,
      };
    } else if (payloadHashOf(opened.saltHex, opened.canonical) !== row.payloadHash) {
      this.problem = { id: row.id, reason: `the payload of row ${row.id} does not match its payload hash (changed)` };
    }
  }

  summary(): PayloadSummary {
    return { stored: this.stored, shredded: this.shredded, opened: this.key !== null };
  }
}

interface ArchivedEnd {
  seq: number;
  hash: string;
  id: number | null;
}

/**
 * Each chain's end as the signed checkpoint of the latest month detached for archive records it (audit-archive.ts):
 * the rows before it are in the archive file, checked with `audit:verify -- --archive FILE`. Months are archived oldest
 * first, so the latest one's ends are where the rows still in the database begin. Also the highest archived id.
 */
async function readArchivedEnds(db: DbOrTx): Promise<{ ends: Map<number, ArchivedEnd>; month: string | null; maxId: number }> {
  const none = { ends: new Map<number, ArchivedEnd>(), month: null, maxId: 0 };
  const exists = await db.execute(sql`SELECT to_regclass('audit_archives') IS NOT NULL AS "has"`);
  if ((exists as unknown as Rows<{ has: boolean }>).rows[0]?.has !== true) return none;
  const result = await db.execute(sql`
    SELECT month, checkpoint FROM audit_archives WHERE detached_at IS NOT NULL ORDER BY month DESC LIMIT 1`);
  const [row] = (result as unknown as Rows<{ month: string; checkpoint: ArchiveCheckpoint }>).rows;
  if (!row) return none;
  const chains = row.checkpoint.chains;
  return {
    ends: new Map(chains.map((c) => [c.chain, { seq: c.endSeq, hash: c.endHash, id: c.endId }])),
    month: row.month,
    maxId: Math.max(0, ...chains.map((c) => c.endId ?? 0)),
  };
}

async function readHeads(db: DbOrTx): Promise<Head[]> {
  const result = await db.execute(sql`
    SELECT chain, last_seq::float8 AS "lastSeq", last_id::float8 AS "lastId", last_hash AS "lastHash"
    FROM audit_chain_head ORDER BY chain`);
  return (result as unknown as Rows<Head>).rows;
}

/** The anchor of a run: each chain's length and the start of its last hash (64 bits is plenty to pin it). */
export function formatAnchor(heads: readonly Head[]): string {
  return heads.map((h) => (h.lastSeq === 0 ? '0' : `${h.lastSeq}-${h.lastHash.slice(0, 16)}`)).join('.');
}

export function parseAnchor(anchor: string): Map<number, { seq: number; hash: string }> {
  const entries = anchor.split('.').map((part, i) => {
    const match = /^(\d+)(?:-([0-9a-f]{16}))?$/.exec(part);
    if (!match || (match[1] !== '0' && !match[2])) throw new Error(`not an audit chain anchor: "${anchor}"`);
    return [i + 1, { seq: Number(match[1]), hash: match[2] ?? '' }] as const;
  });
  return new Map(entries.filter(([, e]) => e.seq > 0));
}

/** The chains an anchor recorded that have no head now (deleted with it), as a sentence; null when none. */
function anchorGone(anchor: string, heads: readonly Head[]): string | null {
  const recorded = anchor.split('.').length;
  const present = new Set(heads.map((h) => h.chain));
  const gone = Array.from({ length: recorded }, (_, i) => i + 1).filter((c) => !present.has(c));
  if (gone.length === 0) return null;
  return `${gone.length} of ${recorded} audit chains were deleted (chains ${gone.join(', ')}, with their heads): the anchor recorded ${recorded} chains, ${heads.length} remain`;
}

/** One chain's walk: what the next row must look like. */
class ChainWalk {
  expectedSeq = 1;
  prevHash = GENESIS_HASH;
  hashBeforePrev: string | null = null;
  prevId: number | null = null;
  failed = false;

  constructor(
    readonly chain: number,
    readonly head: Head | undefined,
    readonly anchor: { seq: number; hash: string } | undefined,
    /** Where the chain's live rows start: the end of the latest month detached for archive (decision 057). */
    start?: ArchivedEnd,
  ) {
    if (start) Object.assign(this, { expectedSeq: start.seq + 1, prevHash: start.hash, prevId: start.id });
  }

  checkBeyondHead(row: StoredRow): Problem | null {
    if (!this.head) return { id: row.id, reason: `row ${row.id} is in chain ${this.chain}, which has no head (inserted)` };
    if (row.chainSeq > this.head.lastSeq)
      return { id: row.id, reason: `row ${row.id} is beyond the head of chain ${this.chain} (inserted)` };
    return null;
  }

  check(row: StoredRow): Problem | null {
    const { chain } = this;
    const beyond = this.checkBeyondHead(row);
    if (beyond) return beyond;
    if (row.chainSeq < this.expectedSeq) {
      return { id: row.id, reason: `row ${row.id} is out of order in chain ${chain} (its id or position was changed)` };
    }
    if (row.chainSeq > this.expectedSeq) return this.missing(this.expectedSeq, row.chainSeq - 1, row.id, false);
    if (row.prevHash !== this.prevHash) return this.diagnoseLink(row);
    if (auditRowHash(this.prevHash, row) !== row.hash) return { id: row.id, reason: `row ${row.id} does not match its hash (changed)` };
    if (this.anchor?.seq === row.chainSeq && !row.hash.startsWith(this.anchor.hash)) {
      return { id: row.id, reason: `row ${row.id} differs from the anchor recorded earlier (chain ${chain} was rebuilt)` };
    }
    return null;
  }

  /**
   * Positions from..to are gone, below id `below` (the next row's id, or the head's last id + 1). Ids rise
   * with positions within a chain, so when the ids between the row before and `below` are exactly as many
   * as the missing rows, the first missing id is known; otherwise (other chains' rows in between) the report
   * names the next row, or at the chain's end its last row as the head records it.
   */
  private missing(from: number, to: number, below: number, atEnd: boolean): Problem {
    const positions = from === to ? `position ${from}` : `positions ${from}-${to}`;
    const prevId = this.prevId ?? 0;
    if (below - prevId - 1 === to - from + 1) {
      return { id: prevId + 1, reason: `row ${prevId + 1} is missing: chain ${this.chain} ${positions} (deleted, or its id changed)` };
    }
    if (atEnd)
      return { id: below - 1, reason: `the end of chain ${this.chain} is missing: ${positions}, the last was row ${below - 1} (deleted)` };
    return { id: below, reason: `the row before row ${below} is missing: chain ${this.chain} ${positions} (deleted)` };
  }

  /** A broken link: the row's own prev_hash changed, or the row before it was rewritten, or one was inserted. */
  private diagnoseLink(row: StoredRow): Problem {
    if (this.prevId !== null && this.hashBeforePrev !== null && row.prevHash === this.hashBeforePrev) {
      return { id: this.prevId, reason: `row ${this.prevId} was inserted into chain ${this.chain}` };
    }
    if (auditRowHash(this.prevHash, row) === row.hash) return { id: row.id, reason: `row ${row.id} has a changed prev_hash` };
    if (this.prevId !== null && auditRowHash(row.prevHash, row) === row.hash) {
      return { id: this.prevId, reason: `row ${this.prevId} was changed and its hash recomputed (row ${row.id} no longer links to it)` };
    }
    return { id: row.id, reason: `row ${row.id} does not link to the row before it in chain ${this.chain} (changed)` };
  }

  accept(row: StoredRow): void {
    this.hashBeforePrev = this.prevHash;
    this.prevHash = row.hash;
    this.prevId = row.id;
    this.expectedSeq++;
  }

  /** After the chain's last row: nothing may be missing at its end, and it must end at its head. */
  finish(): Problem | null {
    const { head, chain } = this;
    if (this.failed || !head) return null;
    const seen = this.expectedSeq - 1;
    // The head names the id of the chain's last row, so a missing end is a gap before "row lastId + 1".
    if (seen < head.lastSeq) return this.missing(seen + 1, head.lastSeq, (head.lastId ?? 0) + 1, true);
    if (this.prevHash !== head.lastHash)
      return { id: this.prevId ?? 0, reason: `row ${this.prevId} does not match the head of chain ${chain} (changed)` };
    if (this.anchor && this.anchor.seq > seen) return { id: 0, reason: `chain ${chain} is shorter than its anchor (rows deleted)` };
    return null;
  }
}

async function walk(db: DbOrTx, options: VerifyOptions): Promise<AuditVerifyResult> {
  const batchSize = options.batchSize ?? 5_000;
  const anchors = options.anchor === undefined ? new Map<number, { seq: number; hash: string }>() : parseAnchor(options.anchor);
  const heads = await readHeads(db);
  if (options.anchor !== undefined) {
    // The anchor names every chain (an empty one as 0): a chain deleted with its head has nothing left to walk
    // (issue 21 item 11).
    const gone = anchorGone(options.anchor, heads);
    if (gone) return { ok: false, firstBadId: 0, reason: gone };
  }
  const checkpoint = options.checkpoint === undefined ? await readLatestCheckpoint(db) : options.checkpoint;
  if (checkpoint) {
    const missing = missingAgainstCheckpoint(checkpoint, heads);
    if (missing.length > 0) return { ok: false, firstBadId: 0, reason: missing.join('; ') };
    for (const h of checkpoint.heads) if (h.seq > 0 && !anchors.has(h.chain)) anchors.set(h.chain, { seq: h.seq, hash: h.hash });
  }
  if (heads.length === 0) return { ok: false, firstBadId: 0, reason: 'the audit chain heads are missing' };
  const headOf = new Map(heads.map((h) => [h.chain, h]));
  const archived = await readArchivedEnds(db);
  const total = heads.reduce((sum, h) => sum + h.lastSeq - (archived.ends.get(h.chain)?.seq ?? 0), 0);
  const problems: Problem[] = [];
  const walks = new Map<number, ChainWalk>();
  const walkOf = (chain: number): ChainWalk => {
    let w = walks.get(chain);
    if (!w) walks.set(chain, (w = new ChainWalk(chain, headOf.get(chain), anchors.get(chain), archived.ends.get(chain))));
    return w;
  };

  const payloads = new PayloadCheck(options.payloadKey === undefined ? auditPayloadBox() : options.payloadKey);
  const withPayloads = await hasPayloads(db);
  let checked = 0;
  let pending = fetchBatch(db, 0, batchSize, withPayloads);
  for (;;) {
    const batch = await pending;
    if (batch.length === 0) break;
    pending = fetchBatch(db, batch[batch.length - 1]!.id, batchSize, withPayloads); // fetched while this batch is hashed
    for (const row of batch) {
      payloads.check(row);
      const w = walkOf(row.chain);
      // After a chain's first problem only rows beyond its head still count (they may be lower ids).
      const problem = w.failed ? w.checkBeyondHead(row) : w.check(row);
      if (problem) {
        problems.push(problem);
        w.failed = true;
      } else if (!w.failed) w.accept(row);
    }
    checked += batch.length;
    options.onProgress?.(Math.min(checked, total), total);
  }
  for (const h of heads) {
    const problem = walkOf(h.chain).finish();
    if (problem) problems.push(problem);
  }
  if (payloads.problem) problems.push(payloads.problem);
  const stray = withPayloads ? await strayPayload(db, archived.maxId) : null;
  if (stray !== null)
    problems.push({ id: stray, reason: `the payload row of audit id ${stray} belongs to no row with a payload hash (inserted)` });
  if (problems.length > 0) {
    const first = problems.reduce((a, b) => (b.id < a.id ? b : a));
    return { ok: false, firstBadId: first.id, reason: first.reason };
  }
  return { ok: true, rows: total, anchor: formatAnchor(heads), payloads: payloads.summary(), archivedThrough: archived.month };
}

/** Checks every chain up to its head. Given the database, reads on one REPEATABLE READ snapshot. */
export async function verifyAuditChain(db: DbOrTx, options: VerifyOptions = {}): Promise<AuditVerifyResult> {
  if (db instanceof PgTransaction) return walk(db, options);
  return db.transaction((tx) => walk(tx, options), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}
