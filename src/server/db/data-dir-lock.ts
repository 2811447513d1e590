// One process at a time on an embedded database folder (issue 10 item 6): PGlite has no guard of its own, and a
// second process (e.g. `npm run seed` beside a running server) writing the same files corrupts them.
// The lock is a file holding the owner's pid, created exclusively; a lock whose process is gone (kill -9, power
// loss) is stale and taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'nhr.lock';

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `The database in ${displayPath(dataDir)} is in use by another process (pid ${pid}). Stop it first, or set DATA_DIR to another folder.`,
    );
    this.name = 'DataDirInUseError';
  }
}

const displayPath = (dir: string): string => {
  const relative = path.relative(process.cwd(), dir);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? `./${relative}` : dir;
};

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by someone else
  }
}

const ownerOf = (file: string): number | null => {
  try {
    const pid = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null; // vanished between the checks
  }
};

/** Folders this process holds: a lock file naming our own pid is otherwise left by a dead process whose pid we reuse. */
const held = new Set<string>();

/** Takes the folder's lock or throws DataDirInUseError; returns the release function. */
export function lockDataDir(dataDir: string): () => void {
  const file = path.join(path.resolve(dataDir), LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      held.add(file);
      return () => {
        if (!held.delete(file)) return;
        if (ownerOf(file) === process.pid) unlinkSync(file);
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = ownerOf(file);
      const ours = owner === process.pid;
      if (owner !== null && (ours ? held.has(file) : processAlive(owner))) throw new DataDirInUseError(dataDir, owner);
      try {
        unlinkSync(file); // stale: its process is gone
      } catch {
        // another process removed it first; try again
      }
    }
  }
  throw new DataDirInUseError(dataDir, ownerOf(file) ?? 0);
}
