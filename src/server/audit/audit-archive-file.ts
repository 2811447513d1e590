// The archive file of one month of the audit log (decision 057): one line per row, in id order, each the canonical JSON
// of the stored row (its hashed fields, prevHash and hash), then one last line {"checkpoint": ...} holding the signed
// checkpoint written before the month's partition was detached. Checking a file needs no database: the checkpoint's
// signature, each row's hash, each chain's positions running on without a gap from the checkpoint's start to its end,
// the row count, and the hash over the row lines (so any changed byte is found).
import { createHash, type KeyObject } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { keyIdOf, signatureHolds } from './audit-digest';
import { auditRowHash, type AuditChainRow } from './audit-hash';
import { canonicalJson, type JsonValue } from './canonical-json';

export const ARCHIVE_FORMAT = 'nhr-audit-archive/1';

/** One chain across the month: its position and hash before the month's first row, and after its last. */
export interface ArchiveChainEnds {
  chain: number;
  startSeq: number;
  startHash: string;
  endSeq: number;
  endHash: string;
  /** The id of the chain's last row up to the month's end (null while the chain is empty). */
  endId: number | null;
}

export interface ArchiveCheckpoint {
  format: typeof ARCHIVE_FORMAT;
  /** YYYY-MM, a UTC month. */
  month: string;
  partition: string;
  createdAt: string;
  rows: number;
  firstId: number | null;
  lastId: number | null;
  /** SHA-256 (hex) of the file's row lines, each with its newline. */
  rowsHash: string;
  chains: ArchiveChainEnds[];
  /** The first 16 hex digits of the SHA-256 of the signing public key (as in the digests). */
  keyId: string;
  /** Ed25519 signature (base64) of the canonical JSON of every other field. */
  signature: string;
}

export interface ArchivedRow extends AuditChainRow {
  payloadHash: string | null;
  prevHash: string;
  hash: string;
}

/** A row's line in the file (without its newline). */
export const archiveLine = (row: ArchivedRow): string => canonicalJson(row as unknown as JsonValue);

/** The checkpoint's trailing line (without its newline). */
export const checkpointLine = (checkpoint: ArchiveCheckpoint): string => JSON.stringify({ checkpoint });

interface ChainState {
  seq: number;
  hash: string;
  id: number | null;
  first: { seq: number; prevHash: string } | null;
}

/**
 * The rows of one month, in id order: each must be of the month, match its hash, and follow the row before it in its
 * chain. Used when a month is archived (from the database) and when a file is checked. `accept` answers the problem of
 * the row, or null.
 */
export class ArchiveRows {
  rows = 0;
  firstId: number | null = null;
  lastId: number | null = null;
  private readonly chains = new Map<number, ChainState>();

  constructor(
    readonly month: string,
    /** Each chain's end before the month (from the month before's checkpoint); unknown chains start where their first row says. */
    starts: readonly { chain: number; seq: number; hash: string; id: number | null }[] = [],
  ) {
    for (const s of starts) this.chains.set(s.chain, { seq: s.seq, hash: s.hash, id: s.id, first: null });
  }

  accept(row: ArchivedRow): string | null {
    if (this.lastId !== null && row.id <= this.lastId) return `row ${row.id} comes after row ${this.lastId}: out of order (changed)`;
    if (!row.timestamp.startsWith(`${this.month}-`)) return `row ${row.id} is of ${row.timestamp}, not of ${this.month} (changed)`;
    let state = this.chains.get(row.chain);
    if (!state) this.chains.set(row.chain, (state = { seq: row.chainSeq - 1, hash: row.prevHash, id: null, first: null }));
    if (state.first === null) state.first = { seq: row.chainSeq, prevHash: row.prevHash };
    else if (row.chainSeq !== state.seq + 1) {
      return row.chainSeq > state.seq + 1
        ? `chain ${row.chain} positions ${state.seq + 1}-${row.chainSeq - 1} are missing before row ${row.id} (removed)`
        : `row ${row.id} repeats position ${row.chainSeq} of chain ${row.chain} (inserted or changed)`;
    } else if (row.prevHash !== state.hash) {
      return `row ${row.id} does not link to the row before it in chain ${row.chain} (changed, or a row removed)`;
    }
    if (auditRowHash(row.prevHash, row) !== row.hash) return `row ${row.id} does not match its hash (changed)`;
    Object.assign(state, { seq: row.chainSeq, hash: row.hash, id: row.id });
    this.rows++;
    this.firstId ??= row.id;
    this.lastId = row.id;
    return null;
  }

  /** Each chain's ends, when the month's rows of every chain ran on from the start they were given. */
  ends(starts: readonly { chain: number; seq: number; hash: string }[]): { ends: ArchiveChainEnds[] } | { problem: string } {
    const startOf = new Map(starts.map((s) => [s.chain, s]));
    const ends: ArchiveChainEnds[] = [];
    for (const [chain, state] of [...this.chains].sort(([a], [b]) => a - b)) {
      const start = startOf.get(chain) ?? { seq: 0, hash: '' };
      if (state.first && (state.first.seq !== start.seq + 1 || state.first.prevHash !== start.hash)) {
        return {
          problem: `chain ${chain} does not run on from position ${start.seq}: its first row of ${this.month} is position ${state.first.seq}`,
        };
      }
      ends.push({ chain, startSeq: start.seq, startHash: start.hash, endSeq: state.seq, endHash: state.hash, endId: state.id });
    }
    return { ends };
  }
}

export type ArchiveVerifyResult = { ok: true; checkpoint: ArchiveCheckpoint } | { ok: false; reason: string };

const isCheckpoint = (c: unknown): c is ArchiveCheckpoint => {
  const x = c as ArchiveCheckpoint;
  return (
    typeof x === 'object' &&
    x !== null &&
    x.format === ARCHIVE_FORMAT &&
    typeof x.month === 'string' &&
    Number.isInteger(x.rows) &&
    typeof x.rowsHash === 'string' &&
    typeof x.signature === 'string' &&
    Array.isArray(x.chains) &&
    x.chains.every((e) => Number.isInteger(e?.chain) && Number.isInteger(e.startSeq) && Number.isInteger(e.endSeq))
  );
};

/**
 * Checks an archive file against the signed checkpoint at its end, with the public key the checkpoint was signed with.
 * Answers the first problem found, in this order: the checkpoint (missing, malformed, or its signature does not hold),
 * the first bad row, the chains' ends and the row count against the checkpoint, the hash over the rows.
 */
export async function verifyArchiveFile(file: string, publicKey: KeyObject): Promise<ArchiveVerifyResult> {
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const hash = createHash('sha256');
  let held: string | null = null;
  let lineNo = 0;
  // Set by `take`, which TypeScript does not follow: typed wide so the checks after the loop are not narrowed to null.
  let month = null as string | null;
  let rows = null as ArchiveRows | null;
  let problem = null as string | null;
  const take = (line: string, n: number): void => {
    hash.update(`${line}\n`, 'utf8');
    if (problem) return;
    let row: ArchivedRow;
    try {
      row = JSON.parse(line) as ArchivedRow;
    } catch {
      problem = `line ${n} is not JSON (changed)`;
      return;
    }
    if (typeof row?.timestamp !== 'string' || typeof row.id !== 'number') {
      problem = `line ${n} is not an audit row (changed)`;
      return;
    }
    // The month is the checkpoint's, checked once it is read; until then the first row's.
    rows ??= new ArchiveRows((month = row.timestamp.slice(0, 7)));
    problem = rows.accept(row);
  };
  for await (const line of lines) {
    if (held !== null) take(held, lineNo);
    held = line;
    lineNo++;
  }
  let checkpoint: unknown;
  try {
    checkpoint = held === null ? null : (JSON.parse(held) as { checkpoint?: unknown }).checkpoint;
  } catch {
    checkpoint = null;
  }
  if (!isCheckpoint(checkpoint))
    return { ok: false, reason: `the file has no archive checkpoint (${ARCHIVE_FORMAT}) on its last line: not an archive, or cut short` };
  const { signature, ...fields } = checkpoint;
  if (!signatureHolds(fields, signature, publicKey)) {
    return {
      ok: false,
      reason: `the checkpoint's signature does not match its contents and key ${keyIdOf(publicKey)}: refused (altered, or signed with another key)`,
    };
  }
  if (problem) return { ok: false, reason: problem };
  if (month !== null && month !== checkpoint.month)
    return { ok: false, reason: `the rows are of ${month}, the checkpoint of ${checkpoint.month}` };
  const counted = rows?.rows ?? 0;
  if (counted !== checkpoint.rows) {
    return { ok: false, reason: `the file has ${counted} rows, its checkpoint ${checkpoint.rows} (rows removed or added)` };
  }
  const ends = (rows ?? new ArchiveRows(checkpoint.month)).ends(
    checkpoint.chains.map((c) => ({ chain: c.chain, seq: c.startSeq, hash: c.startHash })),
  );
  if ('problem' in ends) return { ok: false, reason: ends.problem };
  const found = new Map(ends.ends.map((e) => [e.chain, e]));
  for (const c of checkpoint.chains) {
    const e = found.get(c.chain);
    const endSeq = e?.endSeq ?? c.startSeq;
    const endHash = e?.endHash ?? c.startHash;
    if (endSeq !== c.endSeq || endHash !== c.endHash) {
      return {
        ok: false,
        reason: `chain ${c.chain} ends at position ${endSeq} in the file, at ${c.endSeq} in the checkpoint (rows removed or changed)`,
      };
    }
  }
  if (hash.digest('hex') !== checkpoint.rowsHash)
    return { ok: false, reason: `the file's rows do not match the checkpoint's hash over them (changed)` };
  return { ok: true, checkpoint };
}
