// Detaching a past month of the audit log for archive (decision 057). First the month's rows are read in id order and
// checked (each matches its hash and follows the row before it in its chain, from where the month before ended), written
// to the archive file, and covered by a checkpoint signed with the audit signing key (as the digests are); the checkpoint
// is stored in audit_archives and written as the file's last line. Only then is the partition detached, and only when
// its rows are still exactly the ones the checkpoint counts. The detached table stays in the database until the
// operator drops it (a step of its own, after the file is copied off the server and checked there).
import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { access, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { keyIdOf, signFields } from './audit-digest';
import { ARCHIVE_FORMAT, ArchiveRows, archiveLine, checkpointLine, type ArchiveCheckpoint, type ArchivedRow } from './audit-archive-file';
import { GENESIS_HASH } from './audit-hash';
import { CHAIN_ROW_COLUMNS } from './audit-verify';

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/** Refused, with a sentence for the operator; nothing was detached. */
export class ArchiveRefused extends Error {}

type Rows<T> = { rows: T[] };
const rowsOf = async <T>(db: DbOrTx, query: ReturnType<typeof sql>): Promise<T[]> => ((await db.execute(query)) as unknown as Rows<T>).rows;

/** The partition of a month: audit_logs_YYYY_MM (migration 0054's nhr_audit_create_partition). */
export const partitionOf = (month: string): string => `audit_logs_${month.replace('-', '_')}`;

/** A month as YYYY-MM, refused unless it is a past UTC month (the current one is still written to). */
export function pastMonth(text: string, now: Date = new Date()): string {
  const match = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(text);
  if (!match) throw new ArchiveRefused(`"${text}" is not a month: give it as YYYY-MM, e.g. 2026-01`);
  const current = now.toISOString().slice(0, 7);
  if (text >= current) throw new ArchiveRefused(`${text} is not over yet (this month is ${current}): only a past month can be archived`);
  return text;
}

async function isAttached(db: DbOrTx, partition: string): Promise<boolean> {
  const [row] = await rowsOf<{ attached: boolean }>(
    db,
    sql`SELECT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'audit_logs'::regclass AND c.relname = ${partition}) AS attached`,
  );
  return row?.attached === true;
}

async function storedCheckpoint(db: DbOrTx, month: string): Promise<{ checkpoint: ArchiveCheckpoint; detached: boolean } | null> {
  const [row] = await rowsOf<{ checkpoint: ArchiveCheckpoint; detached: boolean }>(
    db,
    sql`SELECT checkpoint, detached_at IS NOT NULL AS detached FROM audit_archives WHERE month = ${month}`,
  );
  return row ?? null;
}

/** Where each chain stood before the month: the latest earlier archive's ends, else the start of every chain. */
async function chainStarts(db: DbOrTx, month: string): Promise<{ chain: number; seq: number; hash: string; id: number | null }[]> {
  const [previous] = await rowsOf<{ checkpoint: ArchiveCheckpoint }>(
    db,
    sql`SELECT checkpoint FROM audit_archives WHERE month < ${month} AND detached_at IS NOT NULL ORDER BY month DESC LIMIT 1`,
  );
  if (previous) return previous.checkpoint.chains.map((c) => ({ chain: c.chain, seq: c.endSeq, hash: c.endHash, id: c.endId }));
  const heads = await rowsOf<{ chain: number }>(db, sql`SELECT chain FROM audit_chain_head ORDER BY chain`);
  return heads.map((h) => ({ chain: h.chain, seq: 0, hash: GENESIS_HASH, id: null }));
}

/** Writes the month's rows to `out` (checked as they go) and answers the signed checkpoint, also written as its last line. */
async function exportMonth(tx: DbOrTx, month: string, out: string, privateKey: KeyObject, batchSize: number): Promise<ArchiveCheckpoint> {
  const partition = partitionOf(month);
  const starts = await chainStarts(tx, month);
  const rows = new ArchiveRows(month, starts);
  const hash = createHash('sha256');
  const file = createWriteStream(out, { flags: 'wx', mode: 0o640 });
  // The file's error (it exists already, the disk is full), kept to be thrown: the stream then closes by itself.
  let failed: Error | null = null;
  file.on('error', (error) => (failed ??= error));
  const closed = (): Promise<unknown> => (file.closed ? Promise.resolve() : once(file, 'close'));
  const write = async (text: string): Promise<void> => {
    if (failed) throw failed;
    if (!file.write(text)) await Promise.race([once(file, 'drain'), closed()]);
  };
  let pending: Promise<ArchivedRow[]> | null = null;
  try {
    // The partition itself, by its primary key: no other month is read.
    const fetch = (after: number): Promise<ArchivedRow[]> =>
      rowsOf<ArchivedRow>(
        tx,
        sql`SELECT ${CHAIN_ROW_COLUMNS}, payload_hash AS "payloadHash" FROM ${sql.identifier(partition)}
            WHERE id > ${after} ORDER BY id LIMIT ${batchSize}`,
      );
    pending = fetch(0);
    for (;;) {
      const batch = await pending;
      if (batch.length === 0) break;
      pending = fetch(batch[batch.length - 1]!.id); // fetched while this batch is checked and written
      let text = '';
      for (const row of batch) {
        const problem = rows.accept(row);
        if (problem) throw new ArchiveRefused(`${month} cannot be archived: ${problem}. Run npm run audit:verify`);
        const line = `${archiveLine(row)}\n`;
        hash.update(line, 'utf8');
        text += line;
      }
      await write(text);
    }
    const ends = rows.ends(starts);
    if ('problem' in ends)
      throw new ArchiveRefused(
        `${month} cannot be archived: ${ends.problem} (a row of the month's end stamped earlier than the row before it in its chain, see decision 057)`,
      );
    const [now] = await rowsOf<{ at: string }>(tx, sql`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at`);
    const unsigned = {
      format: ARCHIVE_FORMAT,
      month,
      partition,
      createdAt: now!.at,
      rows: rows.rows,
      firstId: rows.firstId,
      lastId: rows.lastId,
      rowsHash: hash.digest('hex'),
      chains: ends.ends,
      keyId: keyIdOf(createPublicKey(privateKey)),
    } as const;
    const checkpoint: ArchiveCheckpoint = { ...unsigned, signature: signFields(unsigned, privateKey) };
    await write(`${checkpointLine(checkpoint)}\n`);
    file.end();
    await closed();
    if (failed) throw failed;
    return checkpoint;
  } catch (error) {
    await pending?.catch(() => undefined); // the batch fetched ahead, before the transaction ends
    file.destroy();
    // Then nothing more is written to it. A write still pending fails with ERR_STREAM_DESTROYED, emitted as an error
    // that would reject the wait for 'close' (events.once) and hide the refusal: the refusal is what is thrown.
    await closed().catch(() => undefined);
    if ((failed as NodeJS.ErrnoException | null)?.code !== 'EEXIST') await rm(out, { force: true });
    throw error;
  }
}

/**
 * Detaches the month's partition, refusing unless a signed checkpoint of the month is stored and the partition holds
 * exactly the rows it counts (same number, same last id). The partition's lock, taken first, keeps rows from arriving
 * between the count and the detach.
 */
export async function detachArchivedMonth(db: Db, month: string, now: Date = new Date()): Promise<void> {
  pastMonth(month, now);
  const partition = partitionOf(month);
  await db.transaction(async (tx) => {
    if (!(await isAttached(tx, partition))) throw new ArchiveRefused(`${partition} is not a partition of audit_logs (already detached?)`);
    const stored = await storedCheckpoint(tx, month);
    if (!stored) {
      throw new ArchiveRefused(
        `${month} has no signed archive checkpoint: refusing to detach ${partition} (run audit:archive, which writes it first)`,
      );
    }
    await tx.execute(sql`LOCK TABLE ${sql.identifier(partition)} IN SHARE MODE`);
    const [now] = await rowsOf<{ rows: number; lastId: number | null }>(
      tx,
      sql`SELECT count(*)::float8 AS rows, max(id)::float8 AS "lastId" FROM ${sql.identifier(partition)}`,
    );
    const { checkpoint } = stored;
    if (now!.rows !== checkpoint.rows || now!.lastId !== checkpoint.lastId) {
      throw new ArchiveRefused(
        `${partition} holds ${now!.rows} rows (last id ${now!.lastId}), its checkpoint ${checkpoint.rows} (last id ${checkpoint.lastId}): refusing to detach`,
      );
    }
    await tx.execute(sql`ALTER TABLE audit_logs DETACH PARTITION ${sql.identifier(partition)}`);
    await tx.execute(sql`UPDATE audit_archives SET detached_at = now() WHERE month = ${month}`);
  });
}

export interface ArchiveResult {
  file: string;
  checkpoint: ArchiveCheckpoint;
  partition: string;
}

/**
 * `npm run audit:archive -- --month YYYY-MM --out FILE`: checks and writes the month's rows to FILE (which must not
 * exist) with the signed checkpoint, stores the checkpoint, then detaches the partition. Months go oldest first.
 */
export async function archiveMonth(
  db: Db,
  options: { month: string; out: string; privateKey: KeyObject; now?: Date; batchSize?: number },
): Promise<ArchiveResult> {
  const month = pastMonth(options.month, options.now);
  const partition = partitionOf(month);
  const existing = await storedCheckpoint(db, month);
  if (existing?.detached) throw new ArchiveRefused(`${month} was archived already (${partition} was detached)`);
  if (!(await isAttached(db, partition))) throw new ArchiveRefused(`${month} has no partition ${partition}: nothing to archive`);
  const [older] = await rowsOf<{ month: string }>(
    db,
    sql`SELECT to_char("timestamp" AT TIME ZONE 'UTC', 'YYYY-MM') AS month FROM audit_logs
        WHERE "timestamp" < ${`${month}-01T00:00:00Z`}::timestamptz ORDER BY "timestamp" LIMIT 1`,
  );
  if (older) throw new ArchiveRefused(`${older.month} is still in the database: archive the months oldest first`);
  if (await exists(options.out)) throw new ArchiveRefused(`${options.out} exists already: give the archive a new file`);
  const checkpoint = await db.transaction((tx) => exportMonth(tx, month, options.out, options.privateKey, options.batchSize ?? 5_000), {
    isolationLevel: 'repeatable read',
    accessMode: 'read only',
  });
  // Written before the detach; a run that stopped after it (the detach refused or failed) is run again: the rows must
  // be the same, or it is refused.
  await db.execute(sql`INSERT INTO audit_archives (month, checkpoint) VALUES (${month}, ${JSON.stringify(checkpoint)}::jsonb)
    ON CONFLICT (month) DO NOTHING`);
  const stored = await storedCheckpoint(db, month);
  if (stored!.checkpoint.rowsHash !== checkpoint.rowsHash || stored!.checkpoint.rows !== checkpoint.rows) {
    await rm(options.out, { force: true });
    throw new ArchiveRefused(
      `${month} has a stored checkpoint of ${stored!.checkpoint.createdAt} over other rows (${stored!.checkpoint.rows}): refusing to detach`,
    );
  }
  await detachArchivedMonth(db, month, options.now);
  return { file: options.out, checkpoint, partition };
}
