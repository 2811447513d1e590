// Audit checkpoints (docs/decisions/012-audit-checkpoints-and-digest.md): the number of chains and each chain's head
// (position + hash) at a moment, stored in audit_checkpoints and, signed, in the daily digest file. The verifier
// compares the chains with the latest checkpoint (or a digest), so a truncated chain or chains deleted wholesale
// with their heads are named even though every remaining row still links.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';

export interface CheckpointHead {
  chain: number;
  seq: number;
  hash: string;
}

export interface Checkpoint {
  /** Where it came from, for the verifier's messages: "checkpoint 4 of 2026-11-23T00:00:00.000Z" or "digest ...". */
  label: string;
  chainCount: number;
  heads: CheckpointHead[];
}

type Rows<T> = { rows: T[] };

/** Every chain's head now (one consistent read). */
export async function readChainHeads(db: DbOrTx): Promise<CheckpointHead[]> {
  const result = await db.execute(sql`
    SELECT chain, last_seq::float8 AS seq, last_hash AS hash FROM audit_chain_head ORDER BY chain`);
  return (result as unknown as Rows<CheckpointHead>).rows;
}

/** Records the current heads as a checkpoint row and returns it. */
export async function writeCheckpoint(db: DbOrTx): Promise<Checkpoint & { id: number; createdAt: string }> {
  const heads = await readChainHeads(db);
  const result = await db.execute(sql`
    INSERT INTO audit_checkpoints (chain_count, heads) VALUES (${heads.length}, ${JSON.stringify(heads)}::jsonb)
    RETURNING id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt"`);
  const [row] = (result as unknown as Rows<{ id: number; createdAt: string }>).rows;
  if (!row) throw new Error('the audit checkpoint was not written');
  return { id: row.id, createdAt: row.createdAt, label: `checkpoint ${row.id} of ${row.createdAt}`, chainCount: heads.length, heads };
}

/** The latest checkpoint, or null when none was ever written. */
export async function readLatestCheckpoint(db: DbOrTx): Promise<Checkpoint | null> {
  const result = await db.execute(sql`
    SELECT id, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
      chain_count AS "chainCount", heads
    FROM audit_checkpoints ORDER BY id DESC LIMIT 1`);
  const [row] = (result as unknown as Rows<{ id: number; createdAt: string; chainCount: number; heads: CheckpointHead[] }>).rows;
  if (!row) return null;
  return { label: `checkpoint ${row.id} of ${row.createdAt}`, chainCount: row.chainCount, heads: row.heads };
}

/**
 * What the current heads lack against a checkpoint: chains that are gone (deleted with their heads) and chains
 * now shorter than recorded (truncated). A chain as long as or longer than recorded is checked by the walk, which
 * compares the row at the recorded position with the recorded hash. Empty when nothing is missing.
 */
export function missingAgainstCheckpoint(checkpoint: Checkpoint, current: readonly { chain: number; lastSeq: number }[]): string[] {
  const now = new Map(current.map((h) => [h.chain, h.lastSeq]));
  const problems: string[] = [];
  const gone = checkpoint.heads.filter((h) => h.seq > 0 && !now.has(h.chain)).map((h) => h.chain);
  if (current.length < checkpoint.chainCount || gone.length > 0) {
    problems.push(
      `${checkpoint.chainCount - current.length} of ${checkpoint.chainCount} audit chains were deleted` +
        (gone.length > 0 ? ` (chains ${gone.join(', ')}, with their heads)` : '') +
        `: ${checkpoint.label} recorded ${checkpoint.chainCount} chains, ${current.length} remain`,
    );
  }
  for (const h of checkpoint.heads) {
    const seq = now.get(h.chain);
    if (seq !== undefined && seq < h.seq) {
      problems.push(`chain ${h.chain} was truncated: ${checkpoint.label} recorded position ${h.seq}, it now ends at ${seq}`);
    }
  }
  return problems;
}
