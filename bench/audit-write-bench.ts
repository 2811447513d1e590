// The cost of the audit write (DESIGN.md §6, §10): a short transaction like a patient lookup, with and
// without writeAudit, measured one at a time (latency) and with 16 concurrent connections (throughput).
//   DATABASE_URL=postgres://... node --import tsx bench/audit-write-bench.ts [--iterations 3000] [--seconds 5]
import { writeFileSync, mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { writeAudit, type AuditEntry } from '../src/server/audit/audit-writer';
import type { Db } from '../src/server/db/client';
import { createBenchDatabase, isMain, percentile } from './bench-database';

const PATIENTS = 1000;
const CONCURRENCY = 16;

export interface AuditWriteBenchResult {
  database: 'pglite' | 'postgres';
  iterations: number;
  latencyMs: { without: { p50: number; p95: number }; with: { p50: number; p95: number }; auditWriteP50: number };
  /** The audit statement alone (1,000 in one transaction, so no commit per write), mean per write. */
  statementOnlyMs: number;
  throughput?: { connections: number; seconds: number; withoutPerSecond: number; withPerSecond: number };
}

const AUDIT_ENTRY: AuditEntry = {
  actor: { userId: 'bench-user', userName: 'Bench User', facility: 'Windhoek Central Hospital' },
  meta: { ip: '127.0.0.1', userAgent: 'Mozilla/5.0 (bench)', sessionHash: 'b'.repeat(64) },
  action: 'VIEW',
  resourceType: 'PATIENT',
  complianceFlags: { type: 'CONSENT' },
};

/** One request's worth of database work: look a patient up, and (optionally) record it. */
async function lookup(db: Db, id: number, audited: boolean): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id, first_name, last_name, date_of_birth FROM patients WHERE id = ${id}`);
    if (audited) {
      await writeAudit(tx, { ...AUDIT_ENTRY, resourceId: id, patientId: id });
    }
  });
}

async function latencies(db: Db, iterations: number): Promise<{ without: number[]; with: number[] }> {
  const out = { without: [] as number[], with: [] as number[] };
  // Alternate in small blocks so drift (cache, autovacuum, other load) hits both modes alike.
  for (let i = 0; i < iterations; i++) {
    for (const audited of (i % 2 === 0 ? [false, true] : [true, false])) {
      const start = performance.now();
      await lookup(db, 1 + (i % PATIENTS), audited);
      (audited ? out.with : out.without).push(performance.now() - start);
    }
  }
  out.without.sort((a, b) => a - b);
  out.with.sort((a, b) => a - b);
  return out;
}

async function statementOnly(db: Db, writes: number): Promise<number> {
  const start = performance.now();
  await db.transaction(async (tx) => {
    for (let i = 0; i < writes; i++) await writeAudit(tx, { ...AUDIT_ENTRY, resourceId: i, patientId: 1 + (i % PATIENTS) });
  });
  return (performance.now() - start) / writes;
}

async function throughput(db: Db, audited: boolean, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      for (let i = w; Date.now() < until; i += CONCURRENCY) {
        await lookup(db, 1 + (i % PATIENTS), audited);
        done++;
      }
    }),
  );
  return Math.round(done / seconds);
}

export async function runAuditWriteBench(opts: { iterations?: number; seconds?: number } = {}): Promise<AuditWriteBenchResult> {
  const iterations = opts.iterations ?? 3000;
  const seconds = opts.seconds ?? 5;
  const bench = await createBenchDatabase({ poolSize: CONCURRENCY + 2 });
  try {
    const { db, kind } = bench.handle;
    await db.execute(sql`INSERT INTO patients (first_name, last_name, date_of_birth, sex, id_number)
      SELECT 'First' || i, 'Last' || i, date '1960-01-01' + i, 'Female', lpad(i::text, 11, '0') FROM generate_series(1, ${PATIENTS}) i`);
    await latencies(db, 300); // warm-up
    const lat = await latencies(db, iterations);
    const round = (n: number): number => Math.round(n * 1000) / 1000;
    const result: AuditWriteBenchResult = {
      database: kind,
      iterations,
      latencyMs: {
        without: { p50: round(percentile(lat.without, 50)), p95: round(percentile(lat.without, 95)) },
        with: { p50: round(percentile(lat.with, 50)), p95: round(percentile(lat.with, 95)) },
        auditWriteP50: round(percentile(lat.with, 50) - percentile(lat.without, 50)),
      },
      statementOnlyMs: round(await statementOnly(db, 1000)),
    };
    if (kind === 'postgres') {
      result.throughput = {
        connections: CONCURRENCY,
        seconds,
        withoutPerSecond: await throughput(db, false, seconds),
        withPerSecond: await throughput(db, true, seconds),
      };
    }
    return result;
  } finally {
    await bench.dispose();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { iterations: { type: 'string' }, seconds: { type: 'string' } } });
  const result = await runAuditWriteBench({
    ...(values.iterations ? { iterations: Number(values.iterations) } : {}),
    ...(values.seconds ? { seconds: Number(values.seconds) } : {}),
  });
  console.log(JSON.stringify(result, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(`bench/results/audit-write-${result.database}.json`, `${JSON.stringify(result, null, 2)}\n`);
}
