// Verifying and reporting on a large audit log: loads N synthetic audit rows (default 1,000,000) with real
// hash chains into a fresh PostgreSQL database, then times verifyAuditChain, each compliance report and the
// audit log filters, with the peak memory of this process.
//   DATABASE_URL=postgres://... node --import tsx bench/audit-verify-bench.ts [--rows 1000000] [--keep]
import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { REPORT_TYPES, type AuditLogQueryInput } from '../src/contracts/audit';
import { auditRowHash, auditTimestampOf, AUDIT_CHAINS, GENESIS_HASH, type AuditChainRow } from '../src/server/audit/audit-hash';
import { verifyAuditChain } from '../src/server/audit/audit-verify';
import { listAuditLogs } from '../src/server/modules/audit/audit.service';
import { computeReportData } from '../src/server/modules/audit/reports.service';
import type { Cell } from './generator/clinical';
import { createBenchDatabase, isMain } from './bench-database';

const BATCH = 10_000;
const START = Date.parse('2025-01-01T00:00:00Z');
const SPACING_MS = 2_500; // 1,000,000 rows span about 29 days

/** A deterministic, plausible mix: mostly searches and record views, some changes, 1% break-the-glass. */
const json = (v: unknown): string | null => (v === null ? null : JSON.stringify(v));

/** A chained row's values in audit_logs' column order (id, chain, chain_seq, … prev_hash, hash), for COPY or UNNEST. */
export const auditRowValues = (row: AuditChainRow, prevHash: string, hash: string): Cell[] => [
  row.id,
  row.chain,
  row.chainSeq,
  row.userId,
  row.userName,
  row.action,
  row.resourceType,
  row.resourceId,
  row.patientId,
  json(row.oldValues),
  json(row.newValues),
  row.ipAddress,
  row.userAgent,
  row.timestamp,
  row.sessionId,
  row.facility,
  json(row.complianceFlags),
  prevHash,
  hash,
];

export function syntheticRow(id: number): Omit<AuditChainRow, 'chain' | 'chainSeq'> {
  const kind = id % 100;
  const user = id % 500;
  const patient = 1 + ((id * 7919) % 100_000);
  const action = kind < 40 ? 'SEARCH' : kind < 90 ? 'VIEW' : kind < 95 ? 'CREATE' : kind < 99 ? 'UPDATE' : 'DELETE';
  const breakGlass = kind === 45;
  return {
    id,
    userId: `user-${user}`,
    userName: `Clinician ${user}`,
    action,
    resourceType: action === 'SEARCH' || action === 'VIEW' ? 'PATIENT' : 'DIAGNOSIS',
    resourceId: action === 'SEARCH' ? null : String(patient),
    patientId: action === 'SEARCH' ? null : patient,
    oldValues: action === 'UPDATE' || action === 'DELETE' ? { condition: 'Malaria', status: 'Active' } : null,
    newValues:
      action === 'SEARCH'
        ? { method: 'name-dob', lastName: `Name${id % 977}` }
        : action === 'CREATE' || action === 'UPDATE'
          ? { condition: 'Malaria', status: 'Resolved' }
          : null,
    ipAddress: `10.0.${user % 250}.${id % 250}`,
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0',
    sessionId: null,
    facility: 'Windhoek Central Hospital',
    complianceFlags: breakGlass
      ? { type: 'BREAK_GLASS', reason: `Emergency admission ${id}` }
      : action === 'VIEW'
        ? { type: 'CONSENT' }
        : null,
    timestamp: auditTimestampOf(new Date(START + id * SPACING_MS)),
  };
}

async function load(url: string, rows: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // The months the rows fall in are past: their partitions of audit_logs (decision 057) are made first.
  await pool.query(
    `SELECT nhr_audit_create_partition(m::date) FROM generate_series($1::timestamptz,
    date_trunc('month', $2::timestamptz), interval '1 month') AS m`,
    [new Date(START).toISOString(), new Date(START + rows * SPACING_MS).toISOString()],
  );
  const heads = Array.from({ length: AUDIT_CHAINS }, () => ({ seq: 0, id: 0, prev: GENESIS_HASH, hash: GENESIS_HASH }));
  let inFlight: Promise<unknown> = Promise.resolve();
  for (let first = 1; first <= rows; first += BATCH) {
    const cols: unknown[][] = Array.from({ length: 19 }, () => []);
    for (let id = first; id < Math.min(first + BATCH, rows + 1); id++) {
      const chain = 1 + (id % AUDIT_CHAINS);
      const head = heads[chain - 1]!;
      const row: AuditChainRow = { ...syntheticRow(id), chain, chainSeq: head.seq + 1 };
      const hash = auditRowHash(head.hash, row);
      auditRowValues(row, head.hash, hash).forEach((v, i) => cols[i]!.push(v));
      Object.assign(head, { seq: row.chainSeq, id, prev: head.hash, hash });
    }
    await inFlight; // one batch inserting while the next is hashed
    inFlight = pool.query(
      `INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type, resource_id, patient_id,
         old_values, new_values, ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, hash)
       SELECT id, chain, seq, uid, uname, action, rtype, rid, pid, ov::jsonb, nv::jsonb, ip, ua, ts::timestamptz, sid, fac, cf::jsonb, ph, h
       FROM unnest($1::bigint[], $2::smallint[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[],
         $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::text[], $19::text[])
         AS t(id, chain, seq, uid, uname, action, rtype, rid, pid, ov, nv, ip, ua, ts, sid, fac, cf, ph, h)`,
      cols,
    );
  }
  await inFlight;
  for (const [i, h] of heads.entries()) {
    await pool.query('UPDATE audit_chain_head SET last_seq = $1, last_id = $2, prev_hash = $3, last_hash = $4 WHERE chain = $5', [
      h.seq,
      h.id || null,
      h.prev,
      h.hash,
      i + 1,
    ]);
  }
  await pool.query(`SELECT setval('audit_logs_id_seq', $1)`, [rows]);
  await pool.query('VACUUM ANALYZE audit_logs');
  await pool.end();
}

/** Runs fn, sampling this process's memory; returns seconds and the peak RSS / heap in MB. */
async function measured<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number; peakRssMb: number; peakHeapMb: number }> {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = (): void => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  const start = performance.now();
  try {
    const result = await fn();
    sample();
    const mb = (n: number): number => Math.round(n / 1024 / 102.4) / 10;
    return { result, seconds: Math.round((performance.now() - start) / 10) / 100, peakRssMb: mb(peakRss), peakHeapMb: mb(peakHeap) };
  } finally {
    clearInterval(timer);
  }
}

export async function runAuditVerifyBench(opts: { rows?: number; keep?: boolean } = {}): Promise<Record<string, unknown>> {
  const rows = opts.rows ?? 1_000_000;
  if (!process.env.DATABASE_URL) throw new Error('set DATABASE_URL: this benchmark runs on PostgreSQL');
  const bench = await createBenchDatabase({ poolSize: 4, keep: opts.keep ?? false });
  try {
    const loaded = await measured(() => load(bench.url!, rows));
    console.log(`loaded ${rows} rows in ${loaded.seconds}s`);
    const { db } = bench.handle;
    const verify = await measured(() => verifyAuditChain(db));
    console.log(`verified in ${verify.seconds}s:`, verify.result.ok ? `OK: ${verify.result.rows} rows` : verify.result);
    const reports: Record<string, unknown> = {};
    for (const type of REPORT_TYPES) {
      const r = await measured(() => computeReportData(db, type, '2025-01-01', '2025-12-31'));
      reports[type] = { seconds: r.seconds, peakRssMb: r.peakRssMb, jsonMb: Math.round(JSON.stringify(r.result).length / 104857.6) / 10 };
    }
    const filters: Record<string, number> = {};
    const cases: Record<string, AuditLogQueryInput> = {
      none: {},
      userId: { userId: 'user-42' },
      patientId: { patientId: '4242' },
      action: { action: 'DELETE' },
      resourceType: { resourceType: 'DIAGNOSIS' },
      oneDay: { dateFrom: '2025-01-15', dateTo: '2025-01-15' },
      all: { userId: 'user-99', action: 'DELETE', dateFrom: '2025-01-01', dateTo: '2025-01-31', limit: '1000' },
    };
    for (const [name, f] of Object.entries(cases)) {
      await listAuditLogs(db, f); // warm
      const start = performance.now();
      await listAuditLogs(db, f);
      filters[name] = Math.round((performance.now() - start) * 100) / 100;
    }
    return {
      rows,
      loadSeconds: loaded.seconds,
      verify: {
        ok: verify.result.ok,
        seconds: verify.seconds,
        rowsPerSecond: Math.round(rows / verify.seconds),
        peakRssMb: verify.peakRssMb,
        peakHeapMb: verify.peakHeapMb,
      },
      reportsOverAllRows: reports,
      auditLogQueryMs: filters,
    };
  } finally {
    await bench.dispose();
  }
}

if (isMain(import.meta.url)) {
  const { values } = parseArgs({ options: { rows: { type: 'string' }, keep: { type: 'boolean' } } });
  const result = await runAuditVerifyBench({ ...(values.rows ? { rows: Number(values.rows) } : {}), keep: values.keep ?? false });
  console.log(JSON.stringify(result, null, 2));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/audit-verify.json', `${JSON.stringify(result, null, 2)}\n`);
}
