// npm run audit:archive -- --month YYYY-MM --out FILE   (decision 057)
// Archives one past month of the audit log of the database in DATABASE_URL (or the embedded one in DATA_DIR): checks and
// writes the month's rows to FILE (JSON lines, which must not exist yet) with a checkpoint signed by the audit signing
// key (AUDIT_SIGNING_KEY / AUDIT_SIGNING_KEY_FILE, as the digests), stores the checkpoint in audit_archives, and only
// then detaches the month's partition. The current month, a month without its checkpoint, and a month with an older one
// still in the database are refused (exit 1). The detached table is left in place: drop it yourself once the file is
// copied off the server and `npm run audit:verify -- --archive FILE` passes there. Exit 2: the command could not run.
import { parseArgs } from 'node:util';
import { ArchiveRefused, archiveMonth } from '../src/server/audit/audit-archive';
import { loadSigningKey } from '../src/server/audit/audit-digest';
import { loadConfig } from '../src/server/config';
import { runAuditCommand, withAppDatabase } from './audit-command';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { month: { type: 'string' }, out: { type: 'string' } } });
  if (!values.month || !values.out) {
    console.log('usage: npm run audit:archive -- --month YYYY-MM --out FILE');
    return 2;
  }
  const config = loadConfig();
  const privateKey = await loadSigningKey(config.auditSigningKey);
  return withAppDatabase(config, async (db) => {
    try {
      const { checkpoint, partition, file } = await archiveMonth(db, { month: values.month!, out: values.out!, privateKey });
      console.log(
        `ARCHIVED: ${checkpoint.rows} rows of ${checkpoint.month} (ids ${checkpoint.firstId ?? '-'} to ${checkpoint.lastId ?? '-'})`,
      );
      console.log(`File: ${file} (checkpoint signed with key ${checkpoint.keyId}, also in audit_archives)`);
      console.log(`Detached: ${partition}. It is still in the database. Copy the file off the server, check it there with`);
      console.log(`  npm run audit:verify -- --archive ${file} --public-key <the signing key's .pub.pem>`);
      console.log(`then drop the table as the owner: DROP TABLE ${partition};`);
      return 0;
    } catch (error) {
      if (!(error instanceof ArchiveRefused)) throw error;
      console.log(`REFUSED: ${error.message}`);
      return 1;
    }
  });
}

runAuditCommand('audit:archive', main);
