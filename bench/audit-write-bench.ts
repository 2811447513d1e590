// The cost of the audit write (DESIGN.md §6, §10): a short transaction like a patient lookup, without and
// with writeAudit, measured one at a time (latency) and with 16 concurrent connections (throughput). For
// context, a third mode writes an ordinary row instead (what any durable write costs, the commit's WAL flush
// included, with no hash chain).
//   DATABASE_URL=postgres://... node --import tsx bench/audit-write-bench.ts [--iterations 3000] [--seconds 5]
import { writeFileSync, mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { writeAudit, type AuditEntry } from '../src/server/audit/audit-writer';
import type { Db } from '../src/server/db/client';
import { createBenchDatabase, isMain, percentile } from './bench-database';

const PATIENTS = 1000;
const CONCURRENCY = 16;
const MODES = ['without', 'with', 'plainWrite'] as const;
type Mode = (typeof MODES)[number];

interface Latency {
  p50: number;
  p95: number;
}
export interface AuditWriteBenchResult {
  database: 'pglite' | 'postgres';
  iterations: number;
  /** Per transaction: without = lookup only; with = lookup + writeAudit; plainWrite = lookup + an ordinary INSERT. */
  latencyMs: Record<Mode, Latency> & { auditWriteP50: number };
  /** writeAudit alone (1,000 in one transaction, so no commit each), mean per write. */
  statementOnlyMs: number;
  throughputPerSecond?: Record<Mode, number> & { connections: number; seconds: number };
}

const AUDIT_ENTRY: AuditEntry = {
  actor: { userId: 'bench-user', userName: 'Bench User', facility: 'Windhoek Central Hospital' },
  meta: { ip: '127.0.0.1', userAgent: 'Mozilla/5.0 (bench)', sessionHash: 'b'.repeat(64) },
  action: 'VIEW',
  resourceType: 'PATIENT',
  complianceFlags: { type: 'CONSENT' },
};

/** One request's worth of database work: look a patient up, and record it (or not). */
async function lookup(db: Db, id: number, mode: Mode): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT id, first_name, last_name, date_of_birth FROM patients WHERE id = ${id}`);
    if (mode === 'with') await writeAudit(tx, { ...AUDIT_ENTRY, resourceId: id, patientId: id });
    if (mode === 'plainWrite') {
      await tx.execute(sql`INSERT INTO bench_plain_writes (patient_id, note) VALUES (${id}, ${'viewed by bench-user'})`);
    }
  });
}

async function latencies(db: Db, iterations: number): Promise<Record<Mode, number[]>> {
  const out: Record<Mode, number[]> = { without: [], with: [], plainWrite: [] };
  // Rotate the order each round so drift (cache, autovacuum, other load) hits every mode alike.
  for (let i = 0; i < iterations; i++) {
    for (let k = 0; k < MODES.length; k++) {
      const mode = MODES[(i + k) % MODES.length]!;
      const start = performance.now();
      await lookup(db, 1 + (i % PATIENTS), mode);
      out[mode].push(performance.now() - start);
    }
  }
  for (const m of MODES) out[m].sort((a, b) => a - b);
  return out;
}

async function statementOnly(db: Db, writes: number): Promise<number> {
  const start = performance.now();
  await db.transaction(async (tx) => {
    for (let i = 0; i < writes; i++) await writeAudit(tx, { ...AUDIT_ENTRY, resourceId: i, patientId: 1 + (i % PATIENTS) });
  });
  return (performance.now() - start) / writes;
}

async function throughput(db: Db, mode: Mode, seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, w) => {
      for (let i = w; Date.now() < until; i += CONCURRENCY) {
        await lookup(db, 1 + (i % PATIENTS), mode);
        done++;
      }
    }),
  );
  return Math.round(done / seconds);
}

const round3 = (n: number): number => Math.round(n * 1000) / 1000;

export async function runAuditWriteBench(opts: { iterations?: number; seconds?: number } = {}): Promise<AuditWriteBenchResult> {
  const iterations = opts.iterations ?? 3000;
  const seconds = opts.seconds ?? 5;
  const bench = await createBenchDatabase({ poolSize: CONCURRENCY + 2 });
  try {
    const { db, kind } = bench.handle;
    await db.execute(sql`INSERT INTO patients (first_name, last_name, date_of_birth, sex, id_number)
      SELECT 'First' || i, 'Last' || i, date '1960-01-01' + i, 'Female', lpad(i::text, 11, '0') FROM generate_series(1, ${PATIENTS}) i`);
    await db.execute(sql`CREATE TABLE bench_plain_writes (id bigserial PRIMARY KEY, patient_id integer NOT NULL, note text NOT NULL,
      at timestamptz NOT NULL DEFAULT now())`);
    await latencies(db, 300); // warm-up
    const lat = await latencies(db, iterations);
    const latency = (m: Mode): Latency => ({ p50: round3(percentile(lat[m], 50)), p95: round3(percentile(lat[m], 95)) });
    const result: AuditWriteBenchResult = {
      database: kind,
      iterations,
      latencyMs: {
        without: latency('without'),
        with: latency('with'),
        plainWrite: latency('plainWrite'),
        auditWriteP50: round3(percentile(lat.with, 50) - percentile(lat.without, 50)),
      },
      statementOnlyMs: round3(await statementOnly(db, 1000)),
    };
    if (kind === 'postgres') {
      result.throughputPerSecond = {
        connections: CONCURRENCY,
        seconds,
        without: await throughput(db, 'without', seconds),
        with: await throughput(db, 'with', seconds),
        plainWrite: await throughput(db, 'plainWrite', seconds),
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
