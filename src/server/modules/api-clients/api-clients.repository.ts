// System clients of the FHIR API (decision 020): the api_clients table and each client's own staff account (a users
// row of account status 'system', no usable password, the system client role narrowed by user_permissions).
import { randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql, type SQLWrapper } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Permission } from '../../../contracts/constants';
import type { DbOrTx } from '../../db/client';
import { apiClients, permissions, securityEvents, userPermissions, users } from '../../db/schema';

export type NewSecurityEvent = Omit<typeof securityEvents.$inferInsert, 'id' | 'userId'>;

export interface ApiClientRow {
  id: string;
  userId: string;
  name: string;
  scopes: string[];
  createdBy: string;
  createdByName: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: string | null;
  revokedByName: string | null;
  tokenIssuedAt: Date;
  expiresAt: Date;
  jwks: unknown;
  searchesPerMinute: number | null;
  openingsPerHour: number | null;
}

export interface NewApiClient {
  name: string;
  scopes: string[];
  tokenHash: string;
  /** When the token stops working (decision 030). */
  expiresAt: Date;
  createdBy: string;
  /** The account's role (the system client role) and the permissions of that role it does not get. */
  roleId: number;
  withheld: Permission[];
  accountStatus: string;
  facility: string | null;
  /** Stored where a password hash would be: not an argon2 hash, so no password ever matches it. */
  noPassword: string;
  now: Date;
}

const creator = alias(users, 'creator');
const revoker = alias(users, 'revoker');
const nameOf = (u: { firstName: SQLWrapper; lastName: SQLWrapper }) =>
  sql<string | null>`nullif(trim(${u.firstName} || ' ' || ${u.lastName}), '')`;

const columns = {
  id: apiClients.id,
  userId: apiClients.userId,
  name: apiClients.name,
  scopes: apiClients.scopes,
  createdBy: apiClients.createdBy,
  createdByName: nameOf(creator),
  createdAt: apiClients.createdAt,
  lastUsedAt: apiClients.lastUsedAt,
  revokedAt: apiClients.revokedAt,
  revokedBy: apiClients.revokedBy,
  revokedByName: nameOf(revoker),
  tokenIssuedAt: apiClients.tokenIssuedAt,
  expiresAt: apiClients.expiresAt,
  jwks: apiClients.jwks,
  searchesPerMinute: apiClients.searchesPerMinute,
  openingsPerHour: apiClients.openingsPerHour,
};

async function selectClients(tx: DbOrTx, id?: string): Promise<ApiClientRow[]> {
  return tx
    .select(columns)
    .from(apiClients)
    .leftJoin(creator, eq(creator.id, apiClients.createdBy))
    .leftJoin(revoker, eq(revoker.id, apiClients.revokedBy))
    .where(id ? eq(apiClients.id, id) : undefined)
    .orderBy(sql`${apiClients.revokedAt} IS NOT NULL`, desc(apiClients.createdAt), apiClients.id);
}

/** Every client, live ones first, newest first. */
export const listClients = (tx: DbOrTx): Promise<ApiClientRow[]> => selectClients(tx);

/** Creates the client's account, its permission exceptions, the client row and the security event; answers the client. */
export async function insertClient(tx: DbOrTx, client: NewApiClient, event: NewSecurityEvent): Promise<ApiClientRow> {
  const id = randomUUID();
  const userId = randomUUID();
  await tx.insert(users).values({
    id: userId,
    // Not a mailbox: the account never signs in, and .invalid (RFC 2606) can never be anyone's address.
    email: `client-${id}@api-clients.invalid`,
    firstName: client.name.slice(0, 100),
    lastName: '',
    passwordHash: client.noPassword,
    isActive: true,
    accountStatus: client.accountStatus,
    roleId: client.roleId,
    facility: client.facility,
    department: null,
    activatedAt: client.now,
    activatedBy: client.createdBy,
    createdAt: client.now,
    updatedAt: client.now,
  });
  if (client.withheld.length > 0) {
    const ids = await tx.select({ id: permissions.id }).from(permissions).where(inArray(permissions.name, client.withheld));
    await tx
      .insert(userPermissions)
      .values(ids.map((p) => ({ userId, permissionId: p.id, isGranted: false, grantedBy: client.createdBy, createdAt: client.now })));
  }
  await tx.insert(apiClients).values({
    id,
    userId,
    name: client.name,
    scopes: client.scopes,
    tokenHash: client.tokenHash,
    createdBy: client.createdBy,
    createdAt: client.now,
    tokenIssuedAt: client.now,
    expiresAt: client.expiresAt,
  });
  await tx.insert(securityEvents).values({ ...event, userId, metadata: { ...(event.metadata as object), apiClientId: id } });
  const [row] = await selectClients(tx, id);
  if (!row) throw new Error('insertClient: the new client is missing');
  return row;
}

/**
 * Revokes a live client: revoked_at/by on the client, its account deactivated, with the security event. Answers the
 * client after the change, or why not: 'missing' (no such client) or 'revoked' (already revoked).
 */
export async function revokeClient(
  tx: DbOrTx,
  id: string,
  by: string,
  now: Date,
  event: NewSecurityEvent,
): Promise<ApiClientRow | 'missing' | 'revoked'> {
  const [done] = await tx
    .update(apiClients)
    .set({ revokedAt: now, revokedBy: by })
    .where(and(eq(apiClients.id, id), isNull(apiClients.revokedAt)))
    .returning({ userId: apiClients.userId });
  if (!done) {
    const [exists] = await tx.select({ id: apiClients.id }).from(apiClients).where(eq(apiClients.id, id));
    return exists ? 'revoked' : 'missing';
  }
  await tx.update(users).set({ isActive: false, updatedAt: now }).where(eq(users.id, done.userId));
  await tx.insert(securityEvents).values({ ...event, userId: done.userId });
  const [row] = await selectClients(tx, id);
  if (!row) throw new Error('revokeClient: the client is missing');
  return row;
}

/**
 * Gives a live client a new token (decision 030): the old token's hash is replaced, so it stops working at once.
 * Answers the client after the change and the old token's hash (for the audit row's fingerprint), or why not:
 * 'missing' (no such client) or 'revoked'.
 */
export async function replaceClientToken(
  tx: DbOrTx,
  id: string,
  token: { tokenHash: string; issuedAt: Date; expiresAt: Date },
  event: NewSecurityEvent,
  /** Checks the client's scopes before anything changes (throws to refuse): who issues a token must hold them. */
  mayIssue: (scopes: string[]) => void = () => undefined,
): Promise<{ row: ApiClientRow; oldTokenHash: string } | 'missing' | 'revoked'> {
  const [old] = await tx
    .select({ tokenHash: apiClients.tokenHash, userId: apiClients.userId, revokedAt: apiClients.revokedAt, scopes: apiClients.scopes })
    .from(apiClients)
    .where(eq(apiClients.id, id))
    .for('update');
  if (!old) return 'missing';
  if (old.revokedAt) return 'revoked';
  mayIssue(old.scopes);
  await tx
    .update(apiClients)
    .set({ tokenHash: token.tokenHash, tokenIssuedAt: token.issuedAt, expiresAt: token.expiresAt })
    .where(eq(apiClients.id, id));
  await tx.insert(securityEvents).values({ ...event, userId: old.userId });
  const [row] = await selectClients(tx, id);
  if (!row) throw new Error('replaceClientToken: the client is missing');
  return { row, oldTokenHash: old.tokenHash };
}

/** A client's SMART keys and own limits (decision 050). */
export interface ClientSmartSettings {
  jwks: unknown;
  searchesPerMinute: number | null;
  openingsPerHour: number | null;
}

/**
 * Sets a live client's public keys and own limits, with the security event. Answers the client before and after the
 * change, or why not: 'missing' (no such client) or 'revoked'.
 */
export async function updateClientSmart(
  tx: DbOrTx,
  id: string,
  settings: ClientSmartSettings,
  event: NewSecurityEvent,
): Promise<{ before: ApiClientRow; row: ApiClientRow } | 'missing' | 'revoked'> {
  const [before] = await selectClients(tx, id);
  if (!before) return 'missing';
  if (before.revokedAt) return 'revoked';
  await tx
    .update(apiClients)
    .set({ jwks: settings.jwks, searchesPerMinute: settings.searchesPerMinute, openingsPerHour: settings.openingsPerHour })
    .where(and(eq(apiClients.id, id), isNull(apiClients.revokedAt)));
  await tx.insert(securityEvents).values({ ...event, userId: before.userId });
  const [row] = await selectClients(tx, id);
  if (!row) throw new Error('updateClientSmart: the client is missing');
  return { before, row };
}
