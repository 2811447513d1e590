// npm run audit:verify [-- --anchor <anchor printed by an earlier run>] [--digest FILE | --digest-dir DIR] [--public-key FILE]
//   [--quiet]
// npm run audit:verify -- --archive FILE [--public-key FILE]
// Walks the audit hash chain of the database in DATABASE_URL (or the embedded one in DATA_DIR) and prints
// 'OK: N rows' (exit 0), or the id of the first row that was changed, inserted or deleted (exit 1). The chains are
// compared with the latest checkpoint in the database, or with a signed digest file given with --digest (its
// signature checked with --public-key, else the key of AUDIT_SIGNING_KEY / AUDIT_SIGNING_KEY_FILE): missing chains
// and truncated chains are named. A digest whose signature does not hold is refused (exit 1). Without --digest, the
// newest digest of --digest-dir, else of AUDIT_DIGEST_COPY_DIR, is used. With no outside reference at all (no digest
// and no anchor) the result can only say the database agrees with itself: a loud warning says so (issue 21 item 11).
// Rows with a payload (decision 042) are checked against their sealed payload with AUDIT_PAYLOAD_KEY (or its file, which
// this never creates); without the key only each payload's presence is checked, and the output says so.
// With --archive, checks a month's archive file (written by audit:archive, decision 057) instead of the database: the
// signature of its checkpoint (with --public-key, else the signing key's), each row's hash, each chain running on without
// a gap from the checkpoint's start to its end, the row count and the hash over the rows. No database is opened.
// Exit 2: the check could not run. With the embedded database, stop the app first: PGlite allows one
// process per data directory.
import { parseArgs } from 'node:util';
import { readFile } from 'node:fs/promises';
import { verifyArchiveFile } from '../src/server/audit/audit-archive-file';
import type { Checkpoint } from '../src/server/audit/audit-checkpoint';
import { checkpointOfDigest, DigestRefused, loadVerifyKey } from '../src/server/audit/audit-digest';
import { latestDigestIn } from '../src/server/audit/audit-digest-copy';
import { configureAuditPayloadsIfKeyExists } from '../src/server/audit/audit-payload';
import { parseAnchor, verifyAuditChain } from '../src/server/audit/audit-verify';
import { loadConfig } from '../src/server/config';
import { runAuditCommand, withAppDatabase } from './audit-command';

/** Printed when the run had nothing from outside the database to compare with. */
const NO_OUTSIDE_REFERENCE = [
  '',
  '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
  'WARNING: NO OUTSIDE REFERENCE. This run compared the audit log only with the database itself.',
  'Someone who can write the database can delete whole audit chains together with their checkpoint rows and this',
  'check still says OK. Verify against a digest kept off the server: --digest FILE, --digest-dir DIR, or set',
  'AUDIT_DIGEST_COPY_DIR (and AUDIT_DIGEST_URL) so the server sends each digest off by itself; or pass --anchor.',
  '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
].join('\n');

/** --archive FILE: the file against its signed checkpoint. */
async function verifyArchive(file: string, publicKeyFile: string | undefined): Promise<number> {
  const key = await loadVerifyKey(publicKeyFile, loadConfig().auditSigningKey);
  const result = await verifyArchiveFile(file, key);
  if (!result.ok) {
    console.log(`BROKEN: ${file}`);
    console.log(result.reason);
    return 1;
  }
  const c = result.checkpoint;
  console.log(`OK: ${c.rows} rows of ${c.month}, consistent with the archive checkpoint of ${c.createdAt} (key ${c.keyId})`);
  return 0;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      anchor: { type: 'string' },
      quiet: { type: 'boolean' },
      digest: { type: 'string' },
      'digest-dir': { type: 'string' },
      'public-key': { type: 'string' },
      archive: { type: 'string' },
    },
  });
  if (values.archive !== undefined) return verifyArchive(values.archive, values['public-key']);
  const anchor = values.anchor;
  if (anchor !== undefined) parseAnchor(anchor); // refuse a malformed anchor before opening the database
  const config = loadConfig();
  let checkpoint: Checkpoint | undefined;
  let digestText: string | undefined;
  if (values.digest !== undefined) digestText = await readFile(values.digest, 'utf8');
  else {
    const dir = values['digest-dir'] ?? config.auditDigestCopy.dir;
    const latest = dir ? await latestDigestIn(dir) : null;
    if (dir && !latest) console.log(`WARNING: no audit digest found in ${dir}`);
    if (latest) {
      console.log(`Using the newest digest of ${dir}: ${latest.file}`);
      digestText = latest.text;
    }
  }
  if (digestText !== undefined) {
    const key = await loadVerifyKey(values['public-key'], config.auditSigningKey);
    try {
      checkpoint = checkpointOfDigest(digestText, key);
    } catch (error) {
      if (!(error instanceof DigestRefused)) throw error;
      console.log(`REFUSED: ${error.message}`);
      return 1;
    }
  }
  configureAuditPayloadsIfKeyExists(config.auditPayloadKey);
  return withAppDatabase(config, async (db) => {
    let lastReport = Date.now();
    const result = await verifyAuditChain(db, {
      ...(anchor ? { anchor } : {}),
      ...(checkpoint ? { checkpoint } : {}),
      onProgress(checked, total) {
        if (!values.quiet && process.stderr.isTTY && Date.now() - lastReport > 2000) {
          lastReport = Date.now();
          process.stderr.write(`checked ${checked} of ${total} rows\n`);
        }
      },
    });
    if (!result.ok) {
      // 0: no row id is known (e.g. the chain heads themselves are gone); the reason says what was found.
      console.log(result.firstBadId > 0 ? `BROKEN: first bad row id ${result.firstBadId}` : 'BROKEN: first bad row id unknown');
      console.log(result.reason);
      return 1;
    }
    console.log(`OK: ${result.rows} rows${checkpoint ? `, consistent with ${checkpoint.label}` : ''}`);
    if (result.archivedThrough) {
      console.log(`The rows up to ${result.archivedThrough} are archived: the chains were checked from its signed checkpoint on`);
    }
    const { stored, shredded, opened } = result.payloads;
    if (stored > 0) {
      console.log(
        `Payloads: ${stored} (${shredded} shredded)${
          opened
            ? ', each opened and matching its hash'
            : `; NOT opened: no payload key (${config.auditPayloadKey.name} or its file), only their presence was checked`
        }`,
      );
    }
    // Kept outside the database, the anchor lets a later run prove these rows were not rebuilt.
    if (result.rows > 0) console.log(`Anchor for later runs: --anchor ${result.anchor}`);
    if (!checkpoint && !anchor) console.log(NO_OUTSIDE_REFERENCE);
    return 0;
  });
}

runAuditCommand('audit:verify', main);
