// Issue 10 item 6: `npm run seed` on the DATA_DIR of a running server broke the server. The embedded database's
// folder is locked by the process that has it open; seed and a second server refuse it with a clear sentence, and
// seed refuses a non-empty patients table the same way (no stack trace, nothing changed).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../e2e/support/server';
import { LOCK_FILE } from '../src/server/db/data-dir-lock';

const dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-seed-lock-'));
const embedded = { DATA_DIR: dataDir, DATABASE_URL: '' };

function run(script: string, args: string[] = []): { status: number | null; stderr: string; stdout: string } {
  const res = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    env: { ...process.env, ...embedded, PORT: '0', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 240_000,
  });
  return { status: res.status, stderr: res.stderr, stdout: res.stdout };
}
const hasStackTrace = (text: string): boolean => /\n\s+at .+:\d+:\d+/.test(text);

describe('the embedded database folder', () => {
  let server: RunningApp | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is refused to seed and to a second server while a server has it open; the server keeps working', async () => {
    server = await startApp(embedded);
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(true);

    const seed = run('scripts/seed.ts', ['--patients', '5']);
    expect(seed.status).toBe(1);
    expect(seed.stderr).toContain('is in use by another process');
    expect(hasStackTrace(seed.stderr)).toBe(false);

    const second = run('src/server/main.ts');
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('is in use by another process');
    expect(hasStackTrace(second.stderr)).toBe(false);

    const health = await fetch(`${server.baseUrl}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: true, medicineChecks: { available: true } });
  }, 300_000);

  it('is free again once the server has stopped; seed then loads, and refuses a second load', async () => {
    expect(await server!.stop()).toBe(0);
    server = undefined;
    expect(existsSync(path.join(dataDir, LOCK_FILE))).toBe(false);

    const first = run('scripts/seed.ts', ['--patients', '5']);
    expect(first.status, first.stderr).toBe(0);
    const again = run('scripts/seed.ts', ['--patients', '5']);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already holds 5 patients; nothing was changed');
    expect(hasStackTrace(again.stderr)).toBe(false);
  }, 300_000);
});
