// The server as `npm start` runs it, in its own processes (issue 11): scripts/start.ts with WORKERS workers on the
// benchmark's PostgreSQL database, on a free loopback port, with an empty client folder (the benchmark needs no
// client build). The load comes from the benchmark's process, so the server's cores are its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * One benchmark user sends thousands of searches and grants: the per-user rate limits and the volume alerts' re-
 * authentication (decision 011, 024) would refuse them. They are raised, not removed: the limiter still counts
 * every request (its database write is part of the measured path). The bulk-search alert refuses nothing, so it
 * keeps the production threshold: the benchmark's user is alerted as a harvester would be, and every search pays
 * the check as it does in production (decision 014).
 */
const BENCH_LIMITS = {
  RATE_LIMIT_SEARCHES_PER_MINUTE: '100000000',
  RATE_LIMIT_ACCESS_GRANTS_PER_HOUR: '100000000',
  ALERT_GRANTS_PER_HOUR: '100000000',
};

export interface ServerProcess {
  port: number;
  /** The primary process (its workers are its children): for CPU time from /proc. */
  pid: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts `npm start`'s script and resolves once /api/health answers 200 (or rejects with the server's output). */
export async function startServerProcess(
  databaseUrl: string,
  workers: number,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const clientDir = mkdtempSync(path.join(tmpdir(), 'nhr-bench-client-'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>bench</title>');
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : []),
      '--import',
      'tsx',
      ...nodeArgs,
      'scripts/start.ts',
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        ...BENCH_LIMITS,
        ...env,
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        WORKERS: String(workers),
        CLIENT_DIR: clientDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not answer /api/health within 120 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { port, pid: child.pid ?? 0, stop };
}

/** Signs in over HTTP; the session cookie (`nhr_sid=...`). */
export async function signInOverHttp(port: number, email: string, password: string, address?: string): Promise<string> {
  const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(address ? { 'x-forwarded-for': address } : {}) },
    body: JSON.stringify({ email, password }),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('nhr_sid='));
  if (res.status !== 200 || !cookie) throw new Error(`sign-in answered ${res.status}: ${await res.text()}`);
  return cookie.split(';')[0]!;
}
