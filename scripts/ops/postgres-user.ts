// What the operations scripts share (the failover pair, the backup and restore drills): PostgreSQL's programs, run as
// the postgres user when this runs as root (PostgreSQL refuses to run as root), in folders that user owns.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
export const PG_CTL = path.join(PG_BIN, 'pg_ctl');

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** The command line to run `args` as the postgres user (as is when not root). */
export function asPostgres(args: string[]): [string, string[]] {
  return asRoot ? ['runuser', ['-u', 'postgres', '--', ...args]] : [args[0]!, args.slice(1)];
}

/** Runs `args` as the postgres user and returns its output; throws with the output when it fails. */
export function runAsPostgres(args: string[], what: string, options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const [cmd, rest] = asPostgres(args);
  const r = spawnSync(cmd, rest, { env: options.env ?? process.env, cwd: options.cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** Makes `dir` (with what is in it) the postgres user's when running as root, so the servers can write there. */
export function prepareDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
  if (asRoot) spawnSync('chown', ['-R', 'postgres:postgres', dir]);
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
