// Bearer tokens of system clients on the FHIR API (issue 14 item 5, docs/decisions/020-fhir-system-clients.md).
// Only URLs under /fhir/ read the Authorization header: elsewhere a bearer token authenticates nothing. The token
// is a fixed prefix and 256 random bits; the database holds its SHA-256 (api_clients.token_hash), like sessions.
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import {
  API_CLIENT_TOKEN_PATTERN,
  API_CLIENT_TOKEN_PREFIX,
  SMART_ACCESS_TOKEN_PATTERN,
  SYSTEM_ACCOUNT_STATUS,
} from '../../contracts/api-clients';
import type { AppDeps } from '../deps';
import { AppError } from '../errors/app-error';
import type { StaffActor } from './actor';
import { countBadToken, loadClientActor, type BadTokenKeys } from './client-token.repository';
import { hashToken } from './session';

/** last_used_at is written at most this often per client. */
export const CLIENT_TOUCH_MS = 60_000;

/** A new token and its hash (what api_clients.token_hash stores). The token is shown once and never stored. */
export function newClientToken(): { token: string; tokenHash: string } {
  const token = `${API_CLIENT_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  return { token, tokenHash: hashToken(token) };
}

/**
 * The bearer credential of the request: undefined when there is no `Authorization: Bearer` header (the session
 * cookie decides), else the token text (possibly malformed: it is then refused like an unknown one).
 */
export function bearerCredential(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer(?:\s+(.*))?$/i.exec(header.trim());
  return match ? (match[1] ?? '').trim() : undefined;
}

export const INVALID_TOKEN_MESSAGE = 'The bearer token is unknown, malformed or revoked';
const invalidToken = (): AppError =>
  new AppError('INVALID_TOKEN', INVALID_TOKEN_MESSAGE, {
    headers: { 'www-authenticate': 'Bearer realm="nhr-fhir", error="invalid_token"' },
  });

export const TOKEN_EXPIRED_MESSAGE = 'The bearer token has expired: an administrator issues a new one';
/** A live client's token past its expiry (decision 030): not a guess, so it is not counted toward the throttle. */
const expiredToken = (): AppError =>
  new AppError('TOKEN_EXPIRED', TOKEN_EXPIRED_MESSAGE, {
    headers: { 'www-authenticate': 'Bearer realm="nhr-fhir", error="invalid_token", error_description="The token has expired"' },
  });

const throttled = (retryAfterMs: number): AppError =>
  new AppError('TOKEN_THROTTLED', 'Too many bad bearer tokens from this address: try again later', {
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
  });

/**
 * The two counters of bad tokens (decision 050): per token fingerprint (the first 16 hex digits of its SHA-256: one
 * broken client resending its stale token is refused by itself) and per address (a spray of different tokens).
 */
const throttleKeys = ({ config }: AppDeps, tokenHash: string, ip: string, at: Date): BadTokenKeys => ({
  token: { key: `badToken:fp:${tokenHash.slice(0, 16)}`, ...config.rateLimits.badToken, at },
  address: { key: `badToken:ip:${ip}`, ...config.rateLimits.badTokenAddress, at },
});

const wellFormed = (token: string): boolean => API_CLIENT_TOKEN_PATTERN.test(token) || SMART_ACCESS_TOKEN_PATTERN.test(token);

/**
 * The staff actor of the system client holding `token` (its static token, or an access token from the SMART token
 * endpoint, decision 050), with its scopes in `client`; throws 401 INVALID_TOKEN (with `WWW-Authenticate: Bearer
 * error="invalid_token"`) for an unknown, malformed or revoked token, 401 TOKEN_EXPIRED for a live client's token past
 * its expiry (decision 030; not counted as a bad token), and 429 TOKEN_THROTTLED once this token has been sent bad
 * `config.rateLimits.badToken.max` times, or this address has sent `badTokenAddress.max` bad tokens, in the window
 * (then even a good token from the address waits for the window to end, so guessing gains nothing). A token over its
 * own limit is refused without being counted against the address again: a single broken client behind a shared
 * address never locks out the others. One prepared statement for a good token; a bad one costs a second (the count).
 */
export async function clientActorFor(deps: AppDeps, token: string, ip: string): Promise<StaffActor> {
  const { db, config } = deps;
  const now = config.now();
  // A malformed token is looked up like any other (it matches nothing), so the throttle sees it the same way.
  const tokenHash = hashToken(wellFormed(token) ? token : `malformed:${token}`);
  const keys = throttleKeys(deps, tokenHash, ip, now);
  const found = await loadClientActor(db, tokenHash, now, CLIENT_TOUCH_MS, keys, SYSTEM_ACCOUNT_STATUS);
  if (found.token.hits >= keys.token.max) throw throttled(found.token.windowLeftMs);
  if (found.address.hits >= keys.address.max) throw throttled(found.address.windowLeftMs);
  if (found.actor) return found.actor;
  if (found.expired) throw expiredToken();
  const counted = await countBadToken(db, keys);
  if (counted.token.hits > keys.token.max) throw throttled(counted.token.windowLeftMs);
  if (counted.address.hits > keys.address.max) throw throttled(counted.address.windowLeftMs);
  throw invalidToken();
}
