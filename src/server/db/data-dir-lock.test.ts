import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, LOCK_FILE, lockDataDir } from './data-dir-lock';

const dirs: string[] = [];
const freshDir = (): string => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nhr-lock-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The pid of a process that has already exited. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '']).pid!;

describe('lockDataDir', () => {
  it('refuses a folder already held, naming the holder, and frees it on release', () => {
    const dir = freshDir();
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(/is in use by another process \(pid \d+\)/);
    release();
    expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    lockDataDir(dir)();
  });

  it('refuses a folder held by another live process', () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, LOCK_FILE), String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
  });

  it('takes over a lock left by a process that died (kill -9, power loss)', () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, LOCK_FILE), String(deadPid()));
    const release = lockDataDir(dir);
    expect(readFileSync(path.join(dir, LOCK_FILE), 'utf8')).toBe(String(process.pid));
    release();
  });

  it("takes over a lock naming this process's pid that this process does not hold (pid reused after a restart)", () => {
    const dir = freshDir();
    writeFileSync(path.join(dir, LOCK_FILE), String(process.pid));
    lockDataDir(dir)();
  });
});
