// `npm start` as an operator runs it: on PostgreSQL, WORKERS app processes behind one port, all of which end on
// SIGTERM; on PGlite one process whatever WORKERS says (the embedded database belongs to one process).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startApp } from '../e2e/support/server';
import { workerCount } from './workers';

/** The ids of the live server processes (scripts/start.ts, not tsx's esbuild helper) whose parent is `pid`. */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after the last ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('scripts/start.ts')) children.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return children;
}
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('WORKERS', () => {
  it('is a whole number from 1 to 64, one per core when unset', () => {
    expect(workerCount(undefined, 2)).toBe(2);
    expect(workerCount('', 8)).toBe(8);
    expect(workerCount('3', 2)).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'two', '65']) expect(() => workerCount(bad, 2)).toThrow(/WORKERS/);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('npm start on PostgreSQL', () => {
  it('runs WORKERS app processes on one port, and SIGTERM ends every one of them and exits 0', async () => {
    const app = await startApp({ WORKERS: '3' }, 'scripts/start.ts');
    let workers: number[] = [];
    try {
      // Each worker opens the database and listens; wait until all three are up.
      for (let i = 0; i < 150 && workers.length < 3; i++) {
        workers = childrenOf(app.pid);
        if (workers.length < 3) await new Promise((r) => setTimeout(r, 200));
      }
      expect(workers).toHaveLength(3);
      const answers = await Promise.all(Array.from({ length: 12 }, () => fetch(`${app.baseUrl}/api/health`).then((r) => r.status)));
      expect(answers.every((s) => s === 200)).toBe(true);
    } finally {
      expect(await app.stop()).toBe(0);
    }
    expect(workers.filter(alive)).toEqual([]);
  }, 320_000);
});

describe('npm start on PGlite', () => {
  it('runs one process whatever WORKERS says', async () => {
    const app = await startApp({ WORKERS: '3', DATABASE_URL: '' }, 'scripts/start.ts');
    try {
      expect((await fetch(`${app.baseUrl}/api/health`)).status).toBe(200);
      expect(childrenOf(app.pid)).toEqual([]);
    } finally {
      expect(await app.stop()).toBe(0);
    }
  }, 320_000);
});
