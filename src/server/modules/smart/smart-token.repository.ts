// The rows of the SMART token endpoint (decision 050): the client an assertion names, the jti of each accepted
// assertion (kept until its exp), and the access tokens issued (their SHA-256, scopes and expiry).
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { apiClients, smartAccessTokens, smartAssertionJtis, users } from '../../db/schema';

export interface AssertingClient {
  id: string;
  scopes: string[];
  jwks: unknown;
  /** Live: not revoked, its account active and a system account. */
  live: boolean;
}

/** The client `id` names, or null when there is none. */
export async function findAssertingClient(db: Db, id: string, systemStatus: string): Promise<AssertingClient | null> {
  const [row] = await db
    .select({
      id: apiClients.id,
      scopes: apiClients.scopes,
      jwks: apiClients.jwks,
      live: sql<boolean>`${apiClients.revokedAt} IS NULL AND ${users.isActive} AND ${users.accountStatus} = ${systemStatus}`,
    })
    .from(apiClients)
    .innerJoin(users, eq(users.id, apiClients.userId))
    .where(eq(apiClients.id, id));
  return row ?? null;
}

/**
 * Records the assertion's jti and the new access token in one transaction; answers false (and stores nothing) when
 * the client has used this jti before and its assertion has not yet expired. Expired jtis and access tokens expired a
 * day ago are deleted on the way.
 */
export async function recordAssertionAndToken(
  db: Db,
  a: { clientId: string; jti: string; assertionExpiresAt: Date },
  token: { tokenHash: string; scopes: string[]; issuedAt: Date; expiresAt: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    await tx.delete(smartAssertionJtis).where(lt(smartAssertionJtis.expiresAt, token.issuedAt));
    await tx.delete(smartAccessTokens).where(lt(smartAccessTokens.expiresAt, new Date(token.issuedAt.getTime() - 86_400_000)));
    const fresh = await tx
      .insert(smartAssertionJtis)
      .values({ clientId: a.clientId, jti: a.jti, expiresAt: a.assertionExpiresAt })
      .onConflictDoNothing()
      .returning({ jti: smartAssertionJtis.jti });
    if (fresh.length === 0) return false;
    await tx.insert(smartAccessTokens).values({ ...token, clientId: a.clientId });
    return true;
  });
}

/** Whether the jti is on record for the client (tests). */
export async function jtiSeen(db: Db, clientId: string, jti: string): Promise<boolean> {
  const rows = await db
    .select({ jti: smartAssertionJtis.jti })
    .from(smartAssertionJtis)
    .where(and(eq(smartAssertionJtis.clientId, clientId), eq(smartAssertionJtis.jti, jti)));
  return rows.length > 0;
}
