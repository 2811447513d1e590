// npm run audit:verify [-- --anchor <id>:<hash>] [--quiet]
// Walks the audit hash chain of the database in DATABASE_URL (or the embedded one in DATA_DIR) and prints
// 'OK: N rows' (exit 0), or the id of the first row that was changed, inserted or deleted (exit 1).
// Exit 2: the check could not run. With the embedded database, stop the app first: PGlite allows one
// process per data directory.
import { parseArgs } from 'node:util';
import { verifyAuditChain } from '../src/server/audit/audit-verify';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';

function parseAnchor(value: string | undefined): { id: number; hash: string } | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d+):([0-9a-f]{64})$/.exec(value);
  if (!match) throw new Error('--anchor must look like <row id>:<64 hex digits>, as printed by an earlier run');
  return { id: Number(match[1]), hash: match[2]! };
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { anchor: { type: 'string' }, quiet: { type: 'boolean' } } });
  const anchor = parseAnchor(values.anchor);
  const config = loadConfig();
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolSize: 2 });
  try {
    let lastReport = Date.now();
    const result = await verifyAuditChain(handle.db, {
      ...(anchor ? { anchor } : {}),
      onProgress(checked, total) {
        if (!values.quiet && process.stderr.isTTY && Date.now() - lastReport > 2000) {
          lastReport = Date.now();
          process.stderr.write(`checked ${checked} of ${total} rows\n`);
        }
      },
    });
    if (!result.ok) {
      console.log(`BROKEN: first bad row id ${result.firstBadId}`);
      console.log(result.reason);
      return 1;
    }
    console.log(`OK: ${result.rows} rows`);
    if (result.rows > 0) console.log(`Anchor for later runs: --anchor ${result.lastId}:${result.lastHash}`);
    return 0;
  } finally {
    await handle.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`audit:verify could not run: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
