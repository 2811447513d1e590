// E-mails waiting for a sender (migration 0034, decision 033): queued here, delivered by a sender once one is set up.
import type { Db } from '../../db/client';
import { mailOutbox, securityEvents } from '../../db/schema';
import type { SecurityEventRow } from './auth.repository';

/** Queues one message and the security event saying why, together. */
export async function queueMail(
  db: Db,
  mail: { recipient: string; template: string; data: Record<string, unknown>; createdAt: Date },
  event: SecurityEventRow,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(mailOutbox).values(mail);
    await tx.insert(securityEvents).values(event);
  });
}
