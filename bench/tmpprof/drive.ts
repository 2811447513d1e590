// TEMPORARY (not committed): 16 doctors (or one) exact search over HTTP against npm start, CPU per request.
import { loadavg } from 'node:os';
import { openDatabase } from '../../src/server/db/client';
import { startProcessSearchServer } from '../search/http-driver';
import { buildTargets } from '../search/targets';
import { runTargets } from '../search/measure';
import { cpuSampler, nodeChildrenOf } from '../load/proc-cpu';
import { readFileSync } from 'node:fs';
const us = (pids: number[]) => pids.reduce((a, pid) => { const t = readFileSync(`/proc/${pid}/stat`, 'utf8'); const f = t.slice(t.lastIndexOf(')') + 2).split(' '); return [a[0]! + Number(f[11]) * 10, a[1]! + Number(f[12]) * 10]; }, [0, 0]);

const url = process.env.DB ?? 'postgres://postgres@127.0.0.1:5432/nhr_match3m';
const conns = Number(process.env.CONNS ?? 16);
const oneUser = process.env.ONE === '1';
const rounds = Number(process.env.ROUNDS ?? 4);
const handle = await openDatabase({ databaseUrl: url, poolSize: 4 });
const today = new Date().toISOString().slice(0, 10);
const all = await buildTargets(handle.db, { perCategory: 200, seed: 7, today });
const targets = all.filter((t) => t.input.method !== 'fuzzy-name');
const fuzzy = all.filter((t) => t.input.method === 'fuzzy-name');
const server = await startProcessSearchServer(handle.db, url, Number(process.env.W ?? 2), conns);
try {
  const warm = server.driver(conns, process.env.WARMONE === '1');
  await runTargets(warm, targets, conns, Number(process.env.WARM ?? 3));
  if (process.env.IDLE) await new Promise((r) => setTimeout(r, Number(process.env.IDLE) * 1000));
  if (process.env.FUZZY) await runTargets(warm, fuzzy.slice(0, Number(process.env.FUZZY)), conns, 1);
  warm.close();
  for (let run = 0; run < Number(process.env.RUNS ?? 2); run++) {
    const d = server.driver(conns, oneUser);
    const la = loadavg()[0]!.toFixed(2);
    const kids = nodeChildrenOf(server.pid!); const u0 = us(kids);
    const cpu = cpuSampler(server.pid!);
    const t0 = performance.now();
    const rate = Number(process.env.RATE ?? 0);
    let samples: { ms: number }[];
    if (rate > 0) {
      const total = targets.length * rounds; let next = 0; samples = [];
      const start = performance.now();
      await Promise.all(Array.from({ length: conns }, async (_, w) => {
        while (next < total) {
          const i = next++; const due = start + (i * 1000) / rate; const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const t = performance.now(); await d.search(targets[i % targets.length]!, w); samples.push({ ms: performance.now() - t });
        }
      }));
    } else samples = await runTargets(d, targets, conns, rounds);
    const ms = performance.now() - t0;
    const used = cpu.stop(); const u1 = us(kids);
    const n = samples.length;
    const sorted = samples.map((s) => s.ms).sort((a, b) => a - b);
    console.log(`load ${la} n=${n} req/s ${((n * 1000) / ms).toFixed(0)} p50 ${sorted[Math.floor(n * 0.5)]!.toFixed(1)} p99 ${sorted[Math.floor(n * 0.99)]!.toFixed(1)} server ${(used.serverMs / n).toFixed(3)} ms pg ${(used.postgresMs / n).toFixed(3)} ms; workers user ${((u1[0]! - u0[0]!) / n).toFixed(3)} sys ${((u1[1]! - u0[1]!) / n).toFixed(3)}`);
    d.close();
  }
} finally {
  await server.close();
  await handle.close();
}
