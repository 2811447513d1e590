// The Idempotency-Keys of record adds (issue 23 item 2, decision 041). A key is claimed by the statement that stores
// the row and its first version (records.repository.ts insertItem): a second add with the same key waits on the first
// one's claim (the primary key) until that one commits or rolls back, then finds the key taken, or claims it itself.
// Keys are per staff member. Here: reading what a key stands for, to answer a repeated add.
import { and, eq } from 'drizzle-orm';
import { idempotencyKeys } from '../../db/schema';
import type { DbOrTx } from '../../db/client';

export interface KeyedAdd {
  requestHash: string;
  kind: string;
  itemId: number;
}

/** The add a staff member's key stands for, or null when the key is unused. */
export async function findKeyedAdd(tx: DbOrTx, userId: string, key: string): Promise<KeyedAdd | null> {
  const [row] = await tx
    .select({ requestHash: idempotencyKeys.requestHash, kind: idempotencyKeys.kind, itemId: idempotencyKeys.itemId })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  return row ?? null;
}
