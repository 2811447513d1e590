// System clients of the FHIR API (issue 14 item 5, docs/decisions/020-fhir-system-clients.md): an administrator
// creates one (its own non-interactive staff account, its scopes, a bearer token shown once), lists them, revokes one.
// Every change and the list are audited through the data context; changes also write a security event.
import { parseFhirScope, permissionsForScopes, permissionsLacking } from '../../../contracts/fhir-scopes';
import {
  DEFAULT_API_CLIENT_LIFETIME,
  SYSTEM_ACCOUNT_STATUS,
  SYSTEM_CLIENT_ROLE_ID,
  type ApiClient,
  type ApiClientSmartInput,
  type CreatedApiClient,
} from '../../../contracts/api-clients';
import type { Permission } from '../../../contracts/constants';
import type { RequestMeta, StaffActor } from '../../context/actor';
import { newClientToken } from '../../context/client-token';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { AppError, validationFailed } from '../../errors/app-error';
import { jwksProblem, type Jwks } from '../smart/client-assertion';
import {
  insertClient,
  listClients,
  replaceClientToken,
  revokeClient,
  updateClientSmart,
  type ApiClientRow,
  type NewSecurityEvent,
} from './api-clients.repository';

/** What the system client role holds (migration 0021): the most any client may do. */
export const SYSTEM_CLIENT_PERMISSIONS: readonly Permission[] = ['patients.search', 'records.read', 'records.write', 'audit.read'];

/** Not an argon2 hash (verifyPassword answers false for it), so no password ever signs the account in. */
export const NO_PASSWORD = '!system-client:no-password';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

const toApiClient = (row: ApiClientRow): ApiClient => ({
  id: row.id,
  userId: row.userId,
  name: row.name,
  scopes: row.scopes,
  createdBy: row.createdByName ?? row.createdBy,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: iso(row.lastUsedAt),
  revokedAt: iso(row.revokedAt),
  revokedBy: row.revokedBy ? (row.revokedByName ?? row.revokedBy) : null,
  tokenIssuedAt: row.tokenIssuedAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  jwks: (row.jwks as Jwks | null) ?? null,
  searchesPerMinute: row.searchesPerMinute,
  openingsPerHour: row.openingsPerHour,
});

const DAY_MS = 86_400_000;
const expiryAfter = (now: Date, days: number): Date => new Date(now.getTime() + days * DAY_MS);
/** What an audit row may say of a token: the first 12 hex digits of its SHA-256, never the token. */
const fingerprint = (tokenHash: string): string => tokenHash.slice(0, 12);

const event = (
  meta: RequestMeta,
  actor: StaffActor,
  eventType: string,
  description: string,
  metadata: Record<string, unknown>,
): NewSecurityEvent => ({
  eventType,
  severity: 'high',
  description,
  metadata: { ...metadata, by: actor.userId },
  facility: actor.facility,
  ipAddress: meta.ip,
  userAgent: meta.userAgent,
});

export { permissionsForScopes };

/**
 * 403 SCOPE_EXCEEDS_CREATOR unless the administrator holds every permission the scopes need (issue 21 item 5,
 * decision 034): a System Administrator without records.read cannot make a client that reads records.
 */
function assertCreatorHolds(actor: StaffActor, scopes: readonly string[]): void {
  const lacking = permissionsLacking(scopes, actor.permissions);
  if (lacking.length === 0) return;
  throw new AppError('SCOPE_EXCEEDS_CREATOR', 'A system client may not be given access you do not have yourself', {
    details: { lacking },
  });
}

/** Creates a client; answers it with its token, which is shown this once (only its SHA-256 is stored). */
export async function createApiClient(
  scope: RequestScope<StaffActor>,
  input: { name: string; scopes: string[]; lifetimeDays?: number },
): Promise<CreatedApiClient> {
  const { actor, meta } = scope;
  // The schema already refused anything else; this keeps the service honest when called directly.
  if (input.scopes.length === 0 || input.scopes.some((s) => parseFhirScope(s) === null)) {
    throw new AppError('VALIDATION_FAILED', 'Invalid scopes', { issues: [{ path: 'scopes', message: 'validation:invalidScope' }] });
  }
  assertCreatorHolds(actor, input.scopes);
  const needed = permissionsForScopes(input.scopes);
  const withheld = SYSTEM_CLIENT_PERMISSIONS.filter((p) => !needed.has(p));
  const { token, tokenHash } = newClientToken();
  const record = event(meta, actor, 'API_CLIENT_CREATED', 'FHIR system client created', { name: input.name, scopes: input.scopes });
  const client = await inAuditedTransaction(scope, async (ctx) => {
    const row = await insertClient(
      ctx.tx,
      {
        name: input.name,
        scopes: input.scopes,
        tokenHash,
        expiresAt: expiryAfter(ctx.now, input.lifetimeDays ?? DEFAULT_API_CLIENT_LIFETIME),
        createdBy: actor.userId,
        roleId: SYSTEM_CLIENT_ROLE_ID,
        withheld,
        accountStatus: SYSTEM_ACCOUNT_STATUS,
        facility: actor.facility,
        noPassword: NO_PASSWORD,
        now: ctx.now,
      },
      record,
    );
    return ctx.audited(toApiClient(row), {
      action: 'CREATE',
      resourceType: 'USER',
      resourceId: row.userId,
      newValues: {
        apiClient: { id: row.id, name: row.name, scopes: row.scopes },
        permissions: [...needed].sort(),
        token: { fingerprint: fingerprint(tokenHash), expiresAt: row.expiresAt.toISOString() },
      },
    });
  });
  return { client, token };
}

/** Every client (never a token or its hash). */
export function listApiClients(scope: RequestScope<StaffActor>): Promise<ApiClient[]> {
  return inAuditedTransaction(scope, async (ctx) => {
    const rows = (await listClients(ctx.tx)).map(toApiClient);
    return ctx.audited(rows, { action: 'VIEW', resourceType: 'USER', newValues: { apiClients: rows.length } });
  });
}

/** Revokes a client: its token stops working at once and its account is deactivated. */
export async function revokeApiClient(scope: RequestScope<StaffActor>, id: string): Promise<ApiClient> {
  const { actor, meta } = scope;
  const record = event(meta, actor, 'API_CLIENT_REVOKED', 'FHIR system client revoked', { apiClientId: id });
  return inAuditedTransaction(scope, async (ctx) => {
    const result = await revokeClient(ctx.tx, id, actor.userId, ctx.now, record);
    if (result === 'missing') throw new AppError('API_CLIENT_NOT_FOUND', 'System client not found');
    if (result === 'revoked') throw new AppError('API_CLIENT_REVOKED', 'This system client is already revoked');
    return ctx.audited(toApiClient(result), {
      action: 'UPDATE',
      resourceType: 'USER',
      resourceId: result.userId,
      newValues: { apiClient: { id: result.id, name: result.name }, revokedAt: result.revokedAt, isActive: false },
    });
  });
}

/**
 * Issues a new token for a live client (decision 030): shown this once; the old token stops working at once. Audited
 * (UPDATE USER) with both tokens' fingerprints and a security event; 404 for an unknown client, 409 for a revoked one.
 */
export async function issueApiClientToken(scope: RequestScope<StaffActor>, id: string, lifetimeDays: number): Promise<CreatedApiClient> {
  const { actor, meta } = scope;
  const { token, tokenHash } = newClientToken();
  const record = event(meta, actor, 'API_CLIENT_TOKEN_ISSUED', 'FHIR system client given a new token', { apiClientId: id });
  const client = await inAuditedTransaction(scope, async (ctx) => {
    const expiresAt = expiryAfter(ctx.now, lifetimeDays);
    // Whoever gets the new token gets what the client may do: the same cap as at creation (issue 21 item 5).
    const result = await replaceClientToken(ctx.tx, id, { tokenHash, issuedAt: ctx.now, expiresAt }, record, (scopes) =>
      assertCreatorHolds(actor, scopes),
    );
    if (result === 'missing') throw new AppError('API_CLIENT_NOT_FOUND', 'System client not found');
    if (result === 'revoked') throw new AppError('API_CLIENT_REVOKED', 'This system client has been revoked');
    return ctx.audited(toApiClient(result.row), {
      action: 'UPDATE',
      resourceType: 'USER',
      resourceId: result.row.userId,
      oldValues: { token: { fingerprint: fingerprint(result.oldTokenHash) } },
      newValues: { apiClient: { id: result.row.id }, token: { fingerprint: fingerprint(tokenHash), expiresAt: expiresAt.toISOString() } },
    });
  });
  return { client, token };
}

/** A key's kid for the audit row: which keys were registered, never the key material itself. */
const kidsOf = (jwks: unknown): string[] => ((jwks as Jwks | null)?.keys ?? []).map((k) => String(k.kid));

/**
 * Sets a client's SMART Backend Services keys and its own limits (decision 050). The keys must be public RSA (2048
 * bits or more) or EC P-384 keys with distinct kids (400 VALIDATION_FAILED, validation:invalidJwks, otherwise).
 * Audited (UPDATE USER, the kids and limits before and after) with a security event; 404 unknown, 409 revoked.
 */
export async function setApiClientSmart(scope: RequestScope<StaffActor>, id: string, input: ApiClientSmartInput): Promise<ApiClient> {
  const { actor, meta } = scope;
  if (input.jwks) {
    const problem = jwksProblem(input.jwks as unknown as Jwks);
    if (problem) throw validationFailed([{ path: 'jwks', message: 'validation:invalidJwks' }], problem);
  }
  const settings = { jwks: input.jwks, searchesPerMinute: input.searchesPerMinute, openingsPerHour: input.openingsPerHour };
  const record = event(meta, actor, 'API_CLIENT_SMART_SET', 'FHIR system client keys or limits set', {
    apiClientId: id,
    kids: kidsOf(input.jwks),
    searchesPerMinute: input.searchesPerMinute,
    openingsPerHour: input.openingsPerHour,
  });
  return inAuditedTransaction(scope, async (ctx) => {
    const result = await updateClientSmart(ctx.tx, id, settings, record);
    if (result === 'missing') throw new AppError('API_CLIENT_NOT_FOUND', 'System client not found');
    if (result === 'revoked') throw new AppError('API_CLIENT_REVOKED', 'This system client has been revoked');
    const view = (r: ApiClientRow) => ({
      kids: kidsOf(r.jwks),
      searchesPerMinute: r.searchesPerMinute,
      openingsPerHour: r.openingsPerHour,
    });
    return ctx.audited(toApiClient(result.row), {
      action: 'UPDATE',
      resourceType: 'USER',
      resourceId: result.row.userId,
      oldValues: view(result.before),
      newValues: { apiClient: { id: result.row.id }, ...view(result.row) },
    });
  });
}
