// The registry-wide matcher as a resumable job (decision 046): patients in id order, a chunk per transaction with
// its checkpoint; started or resumed by POST /api/duplicates/scan (in the background of the worker that got the
// request) or by `npm run match` (in the foreground). One run at a time: the run's row names its owner.
import { randomUUID } from 'node:crypto';
import type { ScanProgress } from '../../../contracts/duplicates';
import type { Db } from '../../db/client';
import { primaryReads, type ReadDb } from '../../db/read-db';
import type { Thresholds } from './match-scoring';
import { keepChunk, readChunk, scoreRead, type ChunkRead } from './matcher';
import { nextChunk } from './match.repository';
import { advanceScan, claimScan, createScan, endScan, latestScan, lockOwnedScan, type ScanRow } from './scan.repository';

/** Patients per chunk (one transaction each). */
export const SCAN_CHUNK = 1000;
/** A running run whose heartbeat is older than this is taken to be abandoned (its worker stopped) and may be resumed. */
export const SCAN_STALE_MS = 2 * 60_000;
/**
 * How far behind the primary a standby may be for a chunk to be read there (decision 058): a minute. A chunk's ids and
 * candidates come from one source, so a patient registered within the lag is not in this run's chunk (its pairs
 * from registration stay; the next run scores it), and a record changed within it is scored as it was, as one
 * changed while a chunk is read on the primary already is. Further behind, the chunk is read on the primary.
 */
export const SCAN_MAX_STALENESS_MS = 60_000;

export interface ScanOptions {
  thresholds: Thresholds;
  now: () => Date;
  chunkSize?: number;
  /** Stop (paused) after this many chunks: tests of resuming. */
  maxChunks?: number;
  signal?: AbortSignal;
  onProgress?: (scan: ScanRow) => void;
  /** Where the chunks are read (the app's read pool, decision 058); default the primary. Every write is on the primary. */
  reads?: ReadDb;
}

export type ScanOutcome = 'done' | 'paused' | 'lost';

/**
 * The run to work on, owned by `owner`: the current one resumed when paused or abandoned, else a new one when none
 * is running (a finished run is started again). Null when another worker's run is still alive.
 */
export async function claimRun(db: Db, owner: string, by: string | null, now: Date): Promise<ScanRow | null> {
  return db.transaction(async (tx) => {
    const latest = await latestScan(tx);
    if (!latest || latest.status === 'done') return createScan(tx, owner, by, now);
    return claimScan(tx, latest.id, owner, now, new Date(now.getTime() - SCAN_STALE_MS));
  });
}

/** A chunk's read under way: settled to a value either way, so a failure waits (unhandled) until its turn. */
type Reading = Promise<{ read: ChunkRead } | { error: unknown }>;

/** The next chunk's ids and its read under way, both from one source (the standby when it is recent enough). */
async function nextRead(reads: ReadDb, after: number, run: ScanRow, size: number, thresholds: Thresholds) {
  const source = await reads.forJob(SCAN_MAX_STALENESS_MS);
  const ids = await source.run((db) => nextChunk(db, after, run.maxPatientId, size));
  const reading: Reading | null =
    ids.length === 0
      ? null
      : source
          .run((db) => readChunk(db, ids, thresholds))
          .then(
            (read) => ({ read }),
            (error: unknown) => ({ error }),
          );
  return { ids, reading };
}
async function readResult(reading: Reading): Promise<ChunkRead> {
  const outcome = await reading;
  if ('error' in outcome) throw outcome.error;
  return outcome.read;
}

/**
 * Runs a claimed run chunk by chunk until it is done, paused (signal or maxChunks) or taken over by another worker.
 * The next chunk is read while this one is scored and stored: reading is the database's work, scoring this process's,
 * so on two cores they overlap. A read chunk is only ever stored after the checkpoint moved past the one before it.
 */
export async function runScan(db: Db, run: ScanRow, owner: string, options: ScanOptions): Promise<ScanOutcome> {
  const chunkSize = options.chunkSize ?? SCAN_CHUNK;
  const reads = options.reads ?? primaryReads(db);
  let checkpoint = run.lastPatientId;
  let { ids, reading } = await nextRead(reads, checkpoint, run, chunkSize, options.thresholds);
  let started = performance.now();
  for (let chunks = 0; ; chunks++) {
    if (options.signal?.aborted || (options.maxChunks !== undefined && chunks >= options.maxChunks)) {
      await reading; // read-only: its result is dropped, and the chunk is read again on resuming
      await endScan(db, run.id, owner, 'paused', options.now());
      return 'paused';
    }
    if (!reading) {
      await endScan(db, run.id, owner, 'done', options.now());
      return 'done';
    }
    // Candidates are read and scored outside the writing transaction (read-only, side by side); then the chunk's pairs
    // and the checkpoint commit together, if this worker still owns the run. A chunk read twice (a crash between) is
    // stored the same.
    const read = await readResult(reading);
    const last = ids[ids.length - 1]!;
    const next = await nextRead(reads, last, run, chunkSize, options.thresholds);
    const nextIds = next.ids;
    reading = next.reading;
    const { pairs, compared } = scoreRead(read, options.thresholds);
    const chunkIds = ids;
    const from = checkpoint;
    const step = await db.transaction(async (tx) => {
      const scan = await lockOwnedScan(tx, run.id, owner);
      if (!scan || scan.lastPatientId !== from) return 'lost' as const;
      const now = options.now();
      await keepChunk(tx, chunkIds, pairs, now);
      await advanceScan(tx, run.id, {
        lastPatientId: last,
        done: chunkIds.length,
        compared,
        pairs: pairs.length,
        seconds: (performance.now() - started) / 1000,
        now,
      });
      return 'chunk' as const;
    });
    started = performance.now();
    checkpoint = last;
    ids = nextIds;
    if (step === 'lost') {
      await reading;
      return 'lost';
    }
    if (options.onProgress) {
      const latest = await latestScan(db);
      if (latest) options.onProgress(latest);
    }
  }
}

export function progressOf(scan: ScanRow | null, thresholds: Thresholds): ScanProgress {
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    status: scan?.status ?? 'never',
    done: scan?.done ?? 0,
    total: scan?.total ?? 0,
    compared: Number(scan?.compared ?? 0),
    pairs: scan?.pairs ?? 0,
    startedAt: scan ? iso(scan.startedAt) : null,
    finishedAt: scan ? iso(scan.finishedAt) : null,
    seconds: Math.round(Number(scan?.seconds ?? 0) * 10) / 10,
    thresholds,
  };
}

/** One per app: the background run this worker started, stopped (paused) when the app closes. */
export class ScanRunner {
  private running: Promise<ScanOutcome> | null = null;
  private readonly abort = new AbortController();
  private readonly owner = `worker-${randomUUID()}`;

  constructor(
    private readonly db: Db,
    private readonly options: Omit<ScanOptions, 'signal'>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts or resumes the run in the background; answers the progress as it is now. */
  async start(by: string | null): Promise<ScanProgress> {
    if (!this.running) {
      const run = await claimRun(this.db, this.owner, by, this.options.now());
      if (run) {
        this.running = runScan(this.db, run, this.owner, { ...this.options, signal: this.abort.signal })
          .catch((error: unknown) => {
            this.onError(error);
            return 'lost' as const;
          })
          .finally(() => {
            this.running = null;
          });
      }
    }
    return this.progress();
  }

  async progress(): Promise<ScanProgress> {
    return progressOf(await latestScan(this.db), this.options.thresholds);
  }

  /** Pauses a run in progress (its checkpoint is kept) and waits for it to stop. */
  async close(): Promise<void> {
    this.abort.abort();
    await this.running;
  }
}
