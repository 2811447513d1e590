// Record access grants (DESIGN.md §4, break-the-glass): consent or a stated reason, valid for 8 hours.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accessGrants } from '../../db/schema';

export const GRANT_HOURS = 8;

export interface NewAccessGrant {
  userId: string;
  patientId: number;
  consent: boolean;
  /** Required when consent is false (the schema enforces 5-500 characters). */
  reason: string | null;
}

export interface AccessGrant extends NewAccessGrant {
  id: number;
  grantedAt: Date;
  expiresAt: Date;
}

/** Creates a grant lasting GRANT_HOURS from the database's clock. */
export async function createAccessGrant(tx: DbOrTx, grant: NewAccessGrant): Promise<AccessGrant> {
  const [row] = await tx
    .insert(accessGrants)
    .values({
      userId: grant.userId,
      patientId: grant.patientId,
      consent: grant.consent,
      reason: grant.consent ? null : grant.reason,
      expiresAt: sql`now() + make_interval(hours => ${GRANT_HOURS})`,
    })
    .returning();
  return row!;
}

/** Whether the user holds an unexpired grant for the patient (index access_grants_user_patient_idx). */
export async function hasLiveGrant(db: DbOrTx, userId: string, patientId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: accessGrants.id })
    .from(accessGrants)
    .where(and(eq(accessGrants.userId, userId), eq(accessGrants.patientId, patientId), gt(accessGrants.expiresAt, sql`now()`)))
    .limit(1);
  return row !== undefined;
}
