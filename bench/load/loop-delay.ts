// The benchmark's side of loop-delay-probe.ts: the workers' event loop delay over one level.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { nodeChildrenOf } from './proc-cpu';

export interface LoopDelay {
  pid: number;
  p50: number;
  p99: number;
  max: number;
}

/** The folder the probe writes to, and the server's node arguments and environment that load it. */
export function loopDelayProbe(): { env: Record<string, string>; nodeArgs: string[]; dir: string; dispose(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'nhr-loop-delay-'));
  return {
    dir,
    env: { LOOP_DELAY_DIR: dir },
    nodeArgs: ['--import', './bench/load/loop-delay-probe.ts'],
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const signal = (pids: number[]): void => pids.forEach((pid) => process.kill(pid, 'SIGUSR2'));

/** Starts a level: each worker's histogram starts afresh. Returns stop(), which reads each worker's delay since. */
export function loopDelaySampler(serverPid: number, dir: string): { stop(): Promise<LoopDelay[]> } {
  const workers = nodeChildrenOf(serverPid);
  signal(workers);
  return {
    async stop() {
      signal(workers);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const files = workers.map((pid) => path.join(dir, `${pid}.json`)).filter((file) => existsSync(file));
      return files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as LoopDelay);
    },
  };
}
