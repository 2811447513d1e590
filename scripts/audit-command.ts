// What the audit commands run by an operator (audit:verify, audit:shred) share: the app's database (DATABASE_URL, else
// the embedded one in DATA_DIR), opened for the command and closed after it, and their exit: the command's own code,
// or 2 with "<command> could not run: <why>" when it throws.
import type { Config } from '../src/server/config';
import { openDatabase, type Db } from '../src/server/db/client';

/** Runs `fn` on the configured database and closes it, whatever `fn` does. */
export async function withAppDatabase<T>(config: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    return await fn(handle.db);
  } finally {
    await handle.close();
  }
}

/** Runs the command and exits with its code; exit 2 when it could not run. */
export function runAuditCommand(name: string, main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`${name} could not run: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(2);
    },
  );
}
