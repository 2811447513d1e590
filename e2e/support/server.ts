// Starts the real app (built client + server) on a free port with a fresh database, for browser journeys.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScratchDatabase, type ScratchDatabase } from '../../src/server/db/scratch-database';

export interface RunningApp {
  baseUrl: string;
  databaseUrl: string | undefined;
  /** The server's process id (with WORKERS, the cluster's primary). */
  pid: number;
  /** Sends SIGTERM, waits for the exit, removes the data; resolves to the exit code. */
  stop(): Promise<number | null>;
  /** Kills the server with SIGKILL (no shutdown of any kind) and waits for it to be gone; the data stays. */
  crash(): Promise<void>;
  /** Starts the server again on the same port and data, after crash(); resolves when it answers /api/health. */
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, log: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

/**
 * Starts `src/server/main.ts` (or `script`, e.g. scripts/start.ts as `npm start` runs it) on a free port:
 * PostgreSQL (a new database) when DATABASE_URL is set, else PGlite in a temp dir.
 */
export async function startApp(env: Record<string, string> = {}, script = 'src/server/main.ts'): Promise<RunningApp> {
  const port = await freePort();
  const serverUrl = process.env.DATABASE_URL;
  let databaseUrl: string | undefined;
  let scratch: ScratchDatabase | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-e2e-'));
  if (serverUrl) {
    scratch = await createScratchDatabase(serverUrl, 'nhr_e2e');
    databaseUrl = scratch.url;
  }
  let output = '';
  const baseUrl = `http://127.0.0.1:${port}`;
  const launch = (): ChildProcess => {
    const started = spawn(process.execPath, ['--import', 'tsx', script], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl ?? '',
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    started.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    return started;
  };
  let child = launch();
  // Generous: migrations on a busy 2-core machine are slow; scripts/start.ts may build the client first.
  await waitForHealth(baseUrl, child, () => output, script === 'src/server/main.ts' ? 180_000 : 300_000);
  return {
    baseUrl,
    databaseUrl,
    get pid() {
      return child.pid!;
    },
    async crash() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      child = launch();
      await waitForHealth(baseUrl, child, () => output, 180_000);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      await scratch?.drop();
      return child.exitCode;
    },
  };
}
