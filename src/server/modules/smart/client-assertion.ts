// The client assertion of SMART Backend Services (RFC 7523 private_key_jwt; decision 050), checked with node:crypto
// alone: a compact JWS signed RS384 or ES384 (what SMART requires a server to support) by one of the keys of the
// client's registered JWKS. Only the cryptography and the shape are checked here; the claims against the client and
// the token endpoint, and the jti against replay, are checked by the token service.
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';

/** The signing algorithms accepted (and announced in the SMART configuration). */
export const ASSERTION_ALGS = ['RS384', 'ES384'] as const;
export type AssertionAlg = (typeof ASSERTION_ALGS)[number];

/** A JWKS as registered: public keys only. */
export interface Jwks {
  keys: JsonWebKey[];
}

export interface AssertionClaims {
  iss?: unknown;
  sub?: unknown;
  aud?: unknown;
  exp?: unknown;
  jti?: unknown;
  [claim: string]: unknown;
}

export interface ParsedAssertion {
  alg: string;
  kid: string | undefined;
  claims: AssertionClaims;
  signingInput: string;
  signature: Buffer;
}

const B64URL = /^[A-Za-z0-9_-]*$/;

function jsonPart(part: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The assertion's parts, or null when it is not a compact JWS with JSON header and claims. */
export function parseAssertion(text: string): ParsedAssertion | null {
  const parts = text.split('.');
  if (parts.length !== 3 || parts.some((p) => !B64URL.test(p))) return null;
  const [h, c, sig] = parts as [string, string, string];
  const header = jsonPart(h);
  const claims = jsonPart(c);
  if (!header || !claims || typeof header.alg !== 'string') return null;
  return {
    alg: header.alg,
    kid: typeof header.kid === 'string' ? header.kid : undefined,
    claims,
    signingInput: `${h}.${c}`,
    signature: Buffer.from(sig, 'base64url'),
  };
}

const isAlg = (alg: string): alg is AssertionAlg => (ASSERTION_ALGS as readonly string[]).includes(alg);

/** Whether `jwk` can verify `alg`: RS384 needs an RSA key, ES384 an EC key on P-384. */
function keyFits(jwk: JsonWebKey, alg: AssertionAlg): boolean {
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  if (alg === 'RS384') return jwk.kty === 'RSA';
  return jwk.kty === 'EC' && jwk.crv === 'P-384';
}

function publicKeyOf(jwk: JsonWebKey): KeyObject | null {
  try {
    return createPublicKey({ key: jwk, format: 'jwk' });
  } catch {
    return null;
  }
}

/**
 * Whether the assertion is signed by a key of `jwks` with its alg: the key named by the header's kid, or when there is
 * no kid, any key that fits the alg. An alg other than RS384/ES384 (`none` among them) is never accepted.
 */
export function signatureVerifies(assertion: ParsedAssertion, jwks: Jwks): boolean {
  const { alg } = assertion;
  if (!isAlg(alg)) return false;
  const candidates = jwks.keys.filter((k) => keyFits(k, alg) && (assertion.kid === undefined || k.kid === assertion.kid));
  for (const jwk of candidates) {
    const key = publicKeyOf(jwk);
    if (!key) continue;
    const data = Buffer.from(assertion.signingInput);
    // JWS carries an ECDSA signature as r||s (RFC 7518 §3.4), not DER.
    const ok =
      alg === 'ES384'
        ? verify('sha384', data, { key, dsaEncoding: 'ieee-p1363' }, assertion.signature)
        : verify('sha384', data, key, assertion.signature);
    if (ok) return true;
  }
  return false;
}

/** The most keys a client may register. */
export const JWKS_MAX_KEYS = 10;

/**
 * Why a JWKS cannot be registered (null when it can): at most JWKS_MAX_KEYS keys, each a public RSA key of at least
 * 2048 bits or an EC key on P-384, with a kid, and never a private key.
 */
export function jwksProblem(jwks: Jwks): string | null {
  if (jwks.keys.length === 0 || jwks.keys.length > JWKS_MAX_KEYS) return `A JWKS holds 1 to ${JWKS_MAX_KEYS} keys`;
  const kids = new Set<string>();
  for (const [i, jwk] of jwks.keys.entries()) {
    if (typeof jwk.kid !== 'string' || jwk.kid.length === 0 || jwk.kid.length > 200) return `Key ${i + 1} has no kid`;
    if (kids.has(jwk.kid)) return `Key ${i + 1} repeats the kid ${jwk.kid}`;
    kids.add(jwk.kid);
    if ('d' in jwk || 'p' in jwk || 'k' in jwk) return `Key ${i + 1} is a private or secret key: register only public keys`;
    if (!(jwk.kty === 'RSA' || (jwk.kty === 'EC' && jwk.crv === 'P-384'))) return `Key ${i + 1} is neither RSA nor EC P-384`;
    const key = publicKeyOf(jwk);
    if (!key) return `Key ${i + 1} is not a valid public key`;
    if (jwk.kty === 'RSA' && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) return `Key ${i + 1} is shorter than 2048 bits`;
  }
  return null;
}
