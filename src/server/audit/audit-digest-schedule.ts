// Writes the signed audit digest every AUDIT_DIGEST_HOURS (docs/decisions/012-audit-checkpoints-and-digest.md): at
// start when the latest checkpoint is older than that, then on a timer. With several workers each checks the age
// first, so one digest is written per period (two at most when they start together). Each digest is also copied to
// AUDIT_DIGEST_COPY_DIR and POSTed to AUDIT_DIGEST_URL when set (audit-digest-copy.ts); a failure is logged as an error.
import { sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { loadSigningKey } from './audit-digest';
import { writeDigestAndSendOff } from './audit-digest-copy';

interface Log {
  info: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

async function digestDue(db: Db, hours: number): Promise<boolean> {
  const result = await db.execute(sql`
    SELECT NOT EXISTS (SELECT 1 FROM audit_checkpoints WHERE created_at > now() - make_interval(hours => ${hours})) AS due`);
  return (result as unknown as { rows: { due: boolean }[] }).rows[0]?.due ?? true;
}

/** Starts the schedule; the returned function stops it. Does nothing when AUDIT_DIGEST_HOURS is 0. */
export function startAuditDigests(
  db: Db,
  config: Pick<Config, 'auditDigestHours' | 'auditSigningKey' | 'dataDir' | 'auditDigestCopy'>,
  log: Log,
): () => void {
  const hours = config.auditDigestHours;
  if (hours === 0) return () => {};
  const run = async (): Promise<void> => {
    try {
      if (!(await digestDue(db, hours))) return;
      const sent = await writeDigestAndSendOff(db, await loadSigningKey(config.auditSigningKey), config);
      if (sent.copied === undefined && sent.posted === undefined)
        log.info({ file: sent.file }, 'audit digest written: copy it off the server (or set AUDIT_DIGEST_COPY_DIR / AUDIT_DIGEST_URL)');
      else log.info({ file: sent.file, copied: sent.copied, posted: sent.posted }, 'audit digest written and sent off the server');
    } catch (err) {
      log.error({ err }, 'the audit digest could not be written');
    }
  };
  void run();
  const timer = setInterval(() => void run(), (Math.min(hours, 24) * 3_600_000) / 4);
  timer.unref();
  return () => clearInterval(timer);
}
