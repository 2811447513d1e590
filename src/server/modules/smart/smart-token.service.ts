// The SMART Backend Services token endpoint (decision 050): the client-credentials grant with private_key_jwt client
// authentication (RFC 7523). A client proves itself with an assertion signed by a key of the JWKS an administrator
// registered for it; it gets an access token of ACCESS_TOKEN_LIFETIME_S seconds for the scopes it asked for, if its
// own scopes cover them. Refusals are OAuth 2.0 errors (RFC 6749 §5.2): every failure to authenticate the client is
// invalid_client, as SMART Backend Services requires; a scope it was not given is invalid_scope.
import { randomBytes } from 'node:crypto';
import { SMART_ACCESS_TOKEN_PREFIX, SYSTEM_ACCOUNT_STATUS } from '../../../contracts/api-clients';
import { hashToken } from '../../context/session';
import type { AppDeps } from '../../deps';
import { parseAssertion, signatureVerifies, type Jwks } from './client-assertion';
import { findAssertingClient, recordAssertionAndToken } from './smart-token.repository';
import { grantScopes } from './smart-scopes';

/** How long an access token works: five minutes, the lifetime SMART Backend Services recommends. */
export const ACCESS_TOKEN_LIFETIME_S = 300;
/** An assertion's exp may be at most this far ahead (SMART: no more than five minutes), plus CLOCK_SKEW_S. */
export const ASSERTION_MAX_AHEAD_S = 300;
const CLOCK_SKEW_S = 60;
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'invalid_scope' | 'unsupported_grant_type';

/** A refusal of the token endpoint: answered as `{ error, error_description }` with its status. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(description);
  }
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  scope: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const isJwks = (value: unknown): value is Jwks => !!value && typeof value === 'object' && Array.isArray((value as { keys?: unknown }).keys);

const audienceIs = (aud: unknown, url: string): boolean => aud === url || (Array.isArray(aud) && aud.includes(url));

const invalidClient = (why: string) => new OAuthError('invalid_client', why);

/**
 * Issues an access token for the form parameters of a token request, or throws OAuthError. `tokenUrl` is the token
 * endpoint's own address: an assertion's aud must name it.
 */
export async function issueSmartToken({ db, config }: AppDeps, form: ReadonlyMap<string, string>, tokenUrl: string): Promise<TokenAnswer> {
  const grantType = form.get('grant_type');
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
  if (grantType !== 'client_credentials') throw new OAuthError('unsupported_grant_type', 'Only the client_credentials grant is supported');
  if (form.get('client_assertion_type') !== CLIENT_ASSERTION_TYPE) {
    throw invalidClient(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE} (private_key_jwt)`);
  }
  const assertion = parseAssertion(form.get('client_assertion') ?? '');
  if (!assertion) throw invalidClient('client_assertion is not a signed JWT');
  const { iss, sub, aud, exp, jti } = assertion.claims;
  if (typeof iss !== 'string' || !UUID.test(iss) || sub !== iss) throw invalidClient('iss and sub must both be the client id');
  const named = form.get('client_id');
  if (named !== undefined && named !== iss) throw invalidClient('client_id differs from the assertion');
  const client = await findAssertingClient(db, iss.toLowerCase(), SYSTEM_ACCOUNT_STATUS);
  if (!client || !client.live) throw invalidClient('Unknown or revoked client');
  if (!isJwks(client.jwks)) throw invalidClient('The client has no registered keys');
  if (!signatureVerifies(assertion, client.jwks))
    throw invalidClient("The signature does not verify with the client's registered keys (RS384 or ES384)");
  if (!audienceIs(aud, tokenUrl)) throw invalidClient(`aud must be the token endpoint, ${tokenUrl}`);
  const now = config.now();
  const nowS = now.getTime() / 1000;
  if (typeof exp !== 'number' || !Number.isFinite(exp)) throw invalidClient('exp is required');
  if (exp <= nowS) throw invalidClient('The assertion has expired');
  if (exp > nowS + ASSERTION_MAX_AHEAD_S + CLOCK_SKEW_S) throw invalidClient('exp may be at most five minutes ahead');
  if (typeof jti !== 'string' || jti.length === 0 || jti.length > 255) throw invalidClient('jti is required (at most 255 characters)');

  const scope = form.get('scope');
  if (scope === undefined) throw new OAuthError('invalid_request', 'scope is required');
  const grant = grantScopes(scope, client.scopes);
  if ('refused' in grant) throw new OAuthError('invalid_scope', grant.refused);

  const token = `${SMART_ACCESS_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const fresh = await recordAssertionAndToken(
    db,
    { clientId: client.id, jti, assertionExpiresAt: new Date(exp * 1000) },
    {
      tokenHash: hashToken(token),
      scopes: grant.granted,
      issuedAt: now,
      expiresAt: new Date(now.getTime() + ACCESS_TOKEN_LIFETIME_S * 1000),
    },
  );
  if (!fresh) throw invalidClient('This assertion (its jti) has been used already');
  return { access_token: token, token_type: 'bearer', expires_in: ACCESS_TOKEN_LIFETIME_S, scope: grant.scope };
}
