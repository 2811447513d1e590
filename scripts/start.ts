// `npm start`: build the client if it is not built, then start the server (which applies migrations).
// On PostgreSQL it runs WORKERS app processes (default: one per core) behind one port with node:cluster; each
// worker is the whole app (the app keeps no state in memory, DESIGN.md §1). The embedded PGlite database belongs
// to one process, so on PGlite the server always runs as a single process.
import { spawnSync } from 'node:child_process';
import cluster, { type Worker } from 'node:cluster';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { workerCount } from './workers';

function buildClientIfMissing(): void {
  const clientIndex = path.resolve(process.env.CLIENT_DIR ?? 'dist/client', 'index.html');
  if (existsSync(clientIndex)) return;
  console.log('Building the client (first start)...');
  // In a child process: Vite's build sets NODE_ENV=production in the process that runs it, and the server's mode
  // (HSTS, upgrade-insecure-requests, Secure cookies) must come only from the NODE_ENV the operator set.
  const vite = path.resolve('node_modules/vite/bin/vite.js');
  const built = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { stdio: 'inherit', env: process.env });
  if (built.status !== 0) {
    console.error('The client build failed; see the messages above.');
    process.exit(built.status ?? 1);
  }
}

/** The primary: forks the workers, replaces one that dies, and on SIGTERM/SIGINT stops them all, then itself. */
function runPrimary(workers: number): void {
  let stopping = false;
  const listening = new WeakSet<Worker>();
  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.once('listening', () => listening.add(worker));
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (!listening.has(worker)) {
      // It never came up (database unreachable, port taken, bad config): starting more would fail the same way.
      console.error(`A server worker failed to start (exit ${code ?? signal}); stopping.`);
      void stopAll(1);
      return;
    }
    console.error(`A server worker stopped (exit ${code ?? signal}); starting another.`);
    fork();
  });
  const stopAll = async (exitCode: number): Promise<void> => {
    if (stopping) return;
    stopping = true;
    const running = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w) && !w!.isDead());
    // Each worker finishes its in-flight requests and closes its pool (src/server/main.ts), then exits.
    await Promise.all(
      running.map(
        (w) =>
          new Promise<void>((resolve) => {
            w.once('exit', () => resolve());
            w.process.kill('SIGTERM');
          }),
      ),
    );
    process.exit(exitCode);
  };
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGINT', () => void stopAll(0));
  console.log(`Starting ${workers} server workers (WORKERS=${workers}, PostgreSQL)`);
  for (let i = 0; i < workers; i++) fork();
}

if (cluster.isPrimary) {
  buildClientIfMissing();
  const workers = process.env.DATABASE_URL ? workerCount(process.env.WORKERS, availableParallelism()) : 1;
  if (workers > 1) runPrimary(workers);
  else await import('../src/server/main');
} else {
  await import('../src/server/main');
}
