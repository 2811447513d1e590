// npm run audit:shred -- <auditId> --reason "..." [--by NAME]
// Shreds the payload of one audit row (docs/decisions/042-audit-payloads-out-of-the-chain.md): its sealed old and new
// values are destroyed, the chained event stays, `npm run audit:verify` still passes, and the shredding is itself an
// audit row. Exit 0: shredded (or already shredded); 1: the row has no payload; 2: it could not run. With the embedded
// database, stop the app first: PGlite allows one process per data directory.
import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { shredAuditPayload } from '../src/server/audit/audit-shred';
import { configureAuditPayloads } from '../src/server/audit/audit-payload';
import { loadConfig } from '../src/server/config';
import { runAuditCommand, withAppDatabase } from './audit-command';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { reason: { type: 'string' }, by: { type: 'string' } },
  });
  const auditId = Number(positionals[0]);
  if (positionals.length !== 1 || !Number.isSafeInteger(auditId) || auditId < 1) throw new Error('give one audit row id');
  const reason = values.reason?.trim() ?? '';
  if (reason === '') throw new Error('--reason "..." is required');
  const config = loadConfig();
  configureAuditPayloads(config.auditPayloadKey);
  const operator = values.by?.trim() || userInfo().username;
  return withAppDatabase(config, async (db) => {
    const by = { userId: `operator:${operator}`, userName: operator, facility: null };
    const outcome = await shredAuditPayload(db, auditId, { by, reason });
    if (outcome === 'NO_PAYLOAD') {
      console.log(`Audit row ${auditId} has no payload (none, or written before payloads existed): nothing shredded.`);
      return 1;
    }
    console.log(
      outcome === 'SHREDDED'
        ? `Shredded the payload of audit row ${auditId}.`
        : `The payload of audit row ${auditId} was already shredded.`,
    );
    return 0;
  });
}

runAuditCommand('audit:shred', main);
