// Preloaded into the benchmark's server processes (`--import ./bench/load/loop-delay-probe.ts`, which node:cluster
// passes on to every worker): each worker's event loop delay (node:perf_hooks monitorEventLoopDelay). On SIGUSR2 a
// worker writes the delay since the last SIGUSR2 to LOOP_DELAY_DIR/<pid>.json and starts afresh, so the load benchmark
// reads it per level (issue 29 item 2). Bench only: the application has no such probe.
import cluster from 'node:cluster';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';

const dir = process.env.LOOP_DELAY_DIR;

if (dir && cluster.isWorker) {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const ms = (ns: number): number => Math.round(ns / 10_000) / 100;
  process.on('SIGUSR2', () => {
    const report = { pid: process.pid, p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
    writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(report));
    histogram.reset();
  });
}
