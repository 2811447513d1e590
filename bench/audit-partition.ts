// One month of the audit log at Namibian volume (issue 28 item 5, decision 057): fills one month's partition with N
// chained rows (default 10,000,000: 16 chains, the rows spread evenly over the month) by COPY on PostgreSQL, then times
// the verification of that month in the database, its archive (rows checked, written with the signed checkpoint, the
// partition detached) and the verification of the archive file against its checkpoint; rows/s of each, the file's size,
// the load average. The database is a scratch one, dropped afterwards (--keep keeps it); the file is removed.
//   DATABASE_URL=postgres://... npm run bench -- audit-partition [--rows 10000000] [--no-archive] [--keep]
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { archiveMonth, partitionOf } from '../src/server/audit/audit-archive';
import { verifyArchiveFile } from '../src/server/audit/audit-archive-file';
import { auditRowHash, auditTimestampOf, AUDIT_CHAINS, GENESIS_HASH, type AuditChainRow } from '../src/server/audit/audit-hash';
import { verifyAuditChain } from '../src/server/audit/audit-verify';
import { auditRowValues, syntheticRow } from './audit-verify-bench';
import { createBenchDatabase, isMain } from './bench-database';
import { copyLine } from './seed/rows';

const COLUMNS = [
  'id',
  'chain',
  'chain_seq',
  'user_id',
  'user_name',
  'action',
  'resource_type',
  'resource_id',
  'patient_id',
  'old_values',
  'new_values',
  'ip_address',
  'user_agent',
  '"timestamp"',
  'session_id',
  'facility',
  'compliance_flags',
  'prev_hash',
  'hash',
];

/** The month measured: the one before last (past, so it can be archived; its partition is made by the bench). */
function benchMonth(now = new Date()): { month: string; start: number; end: number } {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 2, 1);
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1);
  return { month: new Date(start).toISOString().slice(0, 7), start, end };
}

/** Fills the month's partition by COPY, the chains hashed here as the writer would have; sets the heads after. */
async function fill(url: string, rows: number, month: { month: string; start: number; end: number }): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`SELECT nhr_audit_create_partition($1::date)`, [`${month.month}-01`]);
  await client.query('SET synchronous_commit = off');
  const heads = Array.from({ length: AUDIT_CHAINS }, () => ({ seq: 0, id: 0, prev: GENESIS_HASH, hash: GENESIS_HASH }));
  const spacing = (month.end - month.start) / (rows + 1);
  const stream = client.query(copyFrom(`COPY ${partitionOf(month.month)} (${COLUMNS.join(', ')}) FROM STDIN`));
  let chunk = '';
  for (let id = 1; id <= rows; id++) {
    const chain = 1 + (id % AUDIT_CHAINS);
    const head = heads[chain - 1]!;
    const row: AuditChainRow = {
      ...syntheticRow(id),
      timestamp: auditTimestampOf(new Date(month.start + Math.floor(id * spacing))),
      chain,
      chainSeq: head.seq + 1,
    };
    const hash = auditRowHash(head.hash, row);
    chunk += copyLine(auditRowValues(row, head.hash, hash));
    Object.assign(head, { seq: row.chainSeq, id, prev: head.hash, hash });
    if (id % 5_000 === 0 || id === rows) {
      if (!stream.write(chunk)) await once(stream, 'drain');
      chunk = '';
    }
  }
  stream.end();
  await finished(stream);
  for (const [i, h] of heads.entries()) {
    await client.query('UPDATE audit_chain_head SET last_seq = $1, last_id = $2, prev_hash = $3, last_hash = $4 WHERE chain = $5', [
      h.seq,
      h.id || null,
      h.prev,
      h.hash,
      i + 1,
    ]);
  }
  await client.query(`SELECT setval('audit_logs_id_seq', $1)`, [rows]);
  await client.query(`VACUUM ANALYZE ${partitionOf(month.month)}`);
  await client.end();
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number }> {
  const start = performance.now();
  const result = await fn();
  return { result, seconds: Math.round((performance.now() - start) / 10) / 100 };
}

export async function runAuditPartitionBench(opts: { rows: number; archive: boolean; keep: boolean }): Promise<Record<string, unknown>> {
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL: this benchmark runs on PostgreSQL');
  const { rows } = opts;
  const month = benchMonth();
  const perSecond = (seconds: number): number => Math.round(rows / Math.max(seconds, 0.001));
  const bench = await createBenchDatabase({ poolSize: 4, keep: opts.keep });
  const dir = mkdtempSync(path.join(tmpdir(), 'nhr-audit-partition-'));
  try {
    const loadBefore = loadavg()[0]!;
    const filled = await timed(() => fill(bench.url!, rows, month));
    console.log(`filled ${partitionOf(month.month)} with ${rows} rows in ${filled.seconds}s (${perSecond(filled.seconds)} rows/s)`);
    const { db } = bench.handle;
    const verified = await timed(() => verifyAuditChain(db, { batchSize: 10_000 }));
    if (!verified.result.ok) throw new Error(`the month does not verify: ${verified.result.reason}`);
    console.log(`verified the month in the database in ${verified.seconds}s (${perSecond(verified.seconds)} rows/s)`);
    const result: Record<string, unknown> = {
      rows,
      month: month.month,
      fill: { seconds: filled.seconds, rowsPerSecond: perSecond(filled.seconds) },
      verifyInDatabase: { seconds: verified.seconds, rowsPerSecond: perSecond(verified.seconds) },
    };
    if (opts.archive) {
      const file = path.join(dir, `audit-${month.month}.jsonl`);
      const { privateKey, publicKey } = generateKeyPairSync('ed25519');
      const archived = await timed(() => archiveMonth(db, { month: month.month, out: file, privateKey, batchSize: 10_000 }));
      const mb = Math.round(statSync(file).size / 104_857.6) / 10;
      console.log(
        `archived (checked, written, signed, detached) in ${archived.seconds}s (${perSecond(archived.seconds)} rows/s), ${mb} MB`,
      );
      const checked = await timed(() => verifyArchiveFile(file, publicKey));
      if (!checked.result.ok) throw new Error(`the archive file does not verify: ${checked.result.reason}`);
      console.log(`verified the archive file in ${checked.seconds}s (${perSecond(checked.seconds)} rows/s)`);
      Object.assign(result, {
        archive: { seconds: archived.seconds, rowsPerSecond: perSecond(archived.seconds), fileMb: mb },
        verifyArchiveFile: { seconds: checked.seconds, rowsPerSecond: perSecond(checked.seconds) },
      });
    }
    return { ...result, loadAverage: { before: loadBefore, after: loadavg()[0]! } };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await bench.dispose();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, 'no-archive': { type: 'boolean' }, keep: { type: 'boolean' } } });
  const rows = values.rows ? Number(values.rows) : 10_000_000;
  if (!Number.isInteger(rows) || rows < 1) throw new Error(`--rows must be a whole number above 0, got ${values.rows}`);
  const result = await runAuditPartitionBench({ rows, archive: !values['no-archive'], keep: values.keep ?? false });
  console.log(JSON.stringify(result, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/audit-partition.json', `${JSON.stringify(result, null, 2)}\n`);
}
