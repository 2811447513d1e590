// SMART Backend Services through the real app (issue 26 item 5, decision 050): a client registers its public keys on
// the System clients route, gets an access token at the token endpoint with a JWT it signs (keys made here, a plain
// HTTP client through inject), searches with it, and is refused with a wrong key, an expired assertion, a replayed
// jti, a wrong aud or a scope it was not given. Also its own limits, the bad-token lock-out per token and per address,
// and CORS for configured origins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKeyPairSync, randomUUID, sign, type KeyObject } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import type { CreatedApiClient } from '../../../contracts/api-clients';
import { ROLE_IDS } from '../../../contracts/constants';
import { testClock } from '../../test/clock';
import { sql } from 'drizzle-orm';
import { queryOne } from '../../test/sql';
import { signInAsClientCreator } from '../../test/api-client-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app';
import { jtiSeen } from './smart-token.repository';

const clock = testClock(new Date('2026-11-27T08:00:00Z'));
const CORS_ORIGIN = 'https://lab.example.na';
const BAD_TOKEN_MAX = 20;

let t: TestApp;
let admin: { cookie: string };
let doctorCookie: string;
beforeAll(async () => {
  const base = testConfig();
  t = await createTestApp({
    now: clock.now,
    fhirCorsOrigins: [CORS_ORIGIN],
    rateLimits: {
      ...base.rateLimits,
      badToken: { max: BAD_TOKEN_MAX, windowMs: 900_000 },
      badTokenAddress: { max: 200, windowMs: 900_000 },
    },
  });
  admin = await signInAsClientCreator(t);
  doctorCookie = (await signInAs(t, ROLE_IDS.doctor)).cookie;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const tokenUrl = () => `${t.config.publicUrl}/fhir/R4/auth/token`;
const asAdmin = (options: InjectOptions) => t.app.inject({ ...options, headers: { ...options.headers, cookie: admin.cookie } });

type Alg = 'RS384' | 'ES384';
interface KeyPair {
  alg: Alg;
  kid: string;
  privateKey: KeyObject;
  jwk: Record<string, unknown>;
}

function keyPair(alg: Alg): KeyPair {
  const { privateKey, publicKey } =
    alg === 'RS384' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const kid = randomUUID();
  return { alg, kid, privateKey, jwk: { ...publicKey.export({ format: 'jwk' }), kid, alg } };
}

const b64 = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A client assertion signed by `key` (RFC 7523); `claims` replace the defaults. */
function assertion(clientId: string, key: KeyPair, claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}): string {
  const input = `${b64({ alg: key.alg, typ: 'JWT', kid: key.kid, ...header })}.${b64({
    iss: clientId,
    sub: clientId,
    aud: tokenUrl(),
    exp: Math.floor(clock.now().getTime() / 1000) + 240,
    jti: randomUUID(),
    ...claims,
  })}`;
  const signature = sign(
    'sha384',
    Buffer.from(input),
    key.alg === 'ES384' ? { key: key.privateKey, dsaEncoding: 'ieee-p1363' } : key.privateKey,
  );
  return `${input}.${signature.toString('base64url')}`;
}

const form = (fields: Record<string, string>) => ({
  method: 'POST' as const,
  url: '/fhir/R4/auth/token',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: new URLSearchParams(fields).toString(),
});

const tokenRequest = (jwt: string, scope: string, extra: Record<string, string> = {}) =>
  t.app.inject(
    form({
      grant_type: 'client_credentials',
      scope,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: jwt,
      ...extra,
    }),
  );

let ipCounter = 1;
const freshIp = (): string => `10.30.0.${ipCounter++}`;
const bearer = (token: string, url: string, remoteAddress = freshIp(), headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, remoteAddress, headers: { ...headers, authorization: `Bearer ${token}` } });

async function createClient(name: string, scopes: string[]): Promise<CreatedApiClient> {
  const res = await asAdmin({ method: 'POST', url: '/api/admin/api-clients', payload: { name, scopes } });
  expect(res.statusCode).toBe(201);
  return res.json() as CreatedApiClient;
}

const setSmart = (id: string, body: Record<string, unknown>) =>
  asAdmin({
    method: 'PUT',
    url: `/api/admin/api-clients/${id}/smart`,
    payload: { jwks: null, searchesPerMinute: null, openingsPerHour: null, ...body },
  });

async function registered(scopes: string[], keys: KeyPair[]): Promise<CreatedApiClient> {
  const created = await createClient(`Lab ${randomUUID().slice(0, 8)}`, scopes);
  const res = await setSmart(created.client.id, { jwks: { keys: keys.map((k) => k.jwk) } });
  expect(res.statusCode).toBe(200);
  return created;
}

const PATIENT_SEARCH = '/fhir/R4/Patient?identifier=https://nhr.health.gov.na/fhir/sid/nc-number|00000000000';

describe('the SMART configuration', () => {
  it('is served at the FHIR base to anyone, names the token endpoint, private_key_jwt, RS384 and ES384', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/fhir/R4/.well-known/smart-configuration' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json()).toMatchObject({
      token_endpoint: tokenUrl(),
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['private_key_jwt'],
      token_endpoint_auth_signing_alg_values_supported: ['RS384', 'ES384'],
      capabilities: expect.arrayContaining(['client-confidential-asymmetric', 'permission-v2']),
    });
    expect(res.json().scopes_supported).toContain('system/Patient.rs');
    const metadata = await t.app.inject({ method: 'GET', url: '/fhir/R4/metadata' });
    const security = metadata.json().rest[0].security;
    expect(security.extension[0]).toEqual({
      url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
      extension: [{ url: 'token', valueUri: tokenUrl() }],
    });
    expect(security.cors).toBe(true);
  });
});

describe('the token endpoint', () => {
  it.each(['RS384', 'ES384'] as const)(
    'issues a 5-minute token for a %s assertion; the token searches; it ends after 300 s',
    async (alg) => {
      const key = keyPair(alg);
      const { client, token: staticToken } = await registered(['system/Patient.read'], [key]);
      const res = await tokenRequest(assertion(client.id, key), 'system/Patient.rs');
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const answer = res.json();
      expect(answer).toMatchObject({ token_type: 'bearer', expires_in: 300, scope: 'system/Patient.rs' });
      expect(answer.access_token).toMatch(/^nhra_[A-Za-z0-9_-]{43}$/);
      const search = await bearer(answer.access_token, PATIENT_SEARCH);
      expect(search.statusCode).toBe(200);
      expect(search.json()).toMatchObject({ resourceType: 'Bundle', type: 'searchset' });
      // Only the scopes it asked for: no Condition.
      expect((await bearer(answer.access_token, '/fhir/R4/Condition?patient=Patient/1')).statusCode).toBe(403);
      // Only the token's hash is stored.
      const stored = await queryOne<{ n: number }>(
        t.db,
        sql`SELECT count(*)::int AS n FROM smart_access_tokens WHERE client_id = ${client.id}`,
      );
      expect(stored?.n).toBe(1);
      // The static token remains.
      expect((await bearer(staticToken, PATIENT_SEARCH)).statusCode).toBe(200);
      clock.advance(301_000);
      const late = await bearer(answer.access_token, PATIENT_SEARCH);
      expect(late.statusCode).toBe(401);
      expect(late.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    },
  );

  it('refuses a wrong key, an expired assertion, a replayed jti, a wrong aud as invalid_client; an ungranted scope as invalid_scope', async () => {
    const key = keyPair('RS384');
    const other = keyPair('RS384');
    const { client } = await registered(['system/Patient.read'], [key]);
    const refused = async (res: Awaited<ReturnType<typeof tokenRequest>>, error: string, status: number) => {
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json()).toMatchObject({ error, error_description: expect.any(String) });
      expect(res.json().access_token).toBeUndefined();
    };
    const nowS = Math.floor(clock.now().getTime() / 1000);
    // Signed by a key the client never registered (with the registered kid, and without one).
    await refused(await tokenRequest(assertion(client.id, { ...other, kid: key.kid }), 'system/Patient.rs'), 'invalid_client', 401);
    await refused(await tokenRequest(assertion(client.id, other, {}, { kid: undefined }), 'system/Patient.rs'), 'invalid_client', 401);
    // Expired, or valid for too long.
    await refused(await tokenRequest(assertion(client.id, key, { exp: nowS - 1 }), 'system/Patient.rs'), 'invalid_client', 401);
    await refused(await tokenRequest(assertion(client.id, key, { exp: nowS + 3600 }), 'system/Patient.rs'), 'invalid_client', 401);
    // Wrong audience.
    await refused(
      await tokenRequest(assertion(client.id, key, { aud: 'https://elsewhere.example/token' }), 'system/Patient.rs'),
      'invalid_client',
      401,
    );
    // Replayed jti: the first use works, the second is refused.
    const jti = randomUUID();
    const once = assertion(client.id, key, { jti });
    expect((await tokenRequest(once, 'system/Patient.rs')).statusCode).toBe(200);
    expect(await jtiSeen(t.db, client.id, jti)).toBe(true);
    await refused(await tokenRequest(once, 'system/Patient.rs'), 'invalid_client', 401);
    await refused(await tokenRequest(assertion(client.id, key, { jti }), 'system/Patient.rs'), 'invalid_client', 401);
    // Scopes it was not given, or not a system scope, or read without search.
    await refused(await tokenRequest(assertion(client.id, key), 'system/Condition.rs'), 'invalid_scope', 400);
    await refused(await tokenRequest(assertion(client.id, key), 'system/Patient.rs system/*.rs'), 'invalid_scope', 400);
    await refused(await tokenRequest(assertion(client.id, key), 'system/Patient.c'), 'invalid_scope', 400);
    await refused(await tokenRequest(assertion(client.id, key), 'patient/Patient.rs'), 'invalid_scope', 400);
    await refused(await tokenRequest(assertion(client.id, key), 'system/Patient.r'), 'invalid_scope', 400);
    // alg none, another client's id, iss without sub, a garbled JWT.
    const [, body] = assertion(client.id, key).split('.');
    await refused(await tokenRequest(`${b64({ alg: 'none' })}.${body}.`, 'system/Patient.rs'), 'invalid_client', 401);
    await refused(await tokenRequest(assertion(randomUUID(), key), 'system/Patient.rs'), 'invalid_client', 401);
    await refused(await tokenRequest(assertion(client.id, key, { sub: 'someone' }), 'system/Patient.rs'), 'invalid_client', 401);
    await refused(await tokenRequest('not.a.jwt', 'system/Patient.rs'), 'invalid_client', 401);
    // The wrong grant, a repeated parameter, a JSON body.
    await refused(
      await tokenRequest(assertion(client.id, key), 'system/Patient.rs', { grant_type: 'password' }),
      'unsupported_grant_type',
      400,
    );
    const repeated = await t.app.inject({
      ...form({}),
      payload: `grant_type=client_credentials&grant_type=client_credentials&scope=system%2FPatient.rs`,
    });
    await refused(repeated, 'invalid_request', 400);
    const json = await t.app.inject({ method: 'POST', url: '/fhir/R4/auth/token', payload: { grant_type: 'client_credentials' } });
    await refused(json, 'invalid_request', 400);
    // None of these issued a token beyond the one good request.
    const stored = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM smart_access_tokens WHERE client_id = ${client.id}`,
    );
    expect(stored?.n).toBe(1);
  });

  it('refuses a client without keys and a revoked client', async () => {
    const key = keyPair('ES384');
    const { client } = await createClient('No keys', ['system/Patient.read']);
    const none = await tokenRequest(assertion(client.id, key), 'system/Patient.rs');
    expect(none.statusCode).toBe(401);
    expect(none.json().error).toBe('invalid_client');
    const { client: revoked } = await registered(['system/Patient.read'], [key]);
    const got = await tokenRequest(assertion(revoked.id, key), 'system/Patient.rs');
    expect(got.statusCode).toBe(200);
    expect((await asAdmin({ method: 'POST', url: `/api/admin/api-clients/${revoked.id}/revoke` })).statusCode).toBe(200);
    expect((await tokenRequest(assertion(revoked.id, key), 'system/Patient.rs')).statusCode).toBe(401);
    // Its access token stops at once too.
    expect((await bearer(got.json().access_token, PATIENT_SEARCH)).statusCode).toBe(401);
  });
});

describe('keys and limits on the System clients route', () => {
  it('refuses a private key, a short RSA key, a key without kid (400, nothing stored); only an administrator may set them', async () => {
    const key = keyPair('RS384');
    const { client } = await createClient('Keys', ['system/Patient.read']);
    const privateJwk = { ...key.privateKey.export({ format: 'jwk' }), kid: 'k1' };
    const short = { ...generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ format: 'jwk' }), kid: 'k2' };
    const noKid = { ...key.jwk, kid: undefined };
    for (const jwk of [
      privateJwk,
      short,
      noKid,
      { kty: 'oct', k: 'c2VjcmV0', kid: 'k3' },
      { kty: 'RSA', n: 'AQAB', e: 'AQAB', kid: 'k4' },
    ]) {
      const res = await setSmart(client.id, { jwks: { keys: [jwk] } });
      expect(res.statusCode, JSON.stringify(jwk)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', issues: [{ path: 'jwks', message: 'validation:invalidJwks' }] });
    }
    for (const limit of [0, -1, 1.5, 100_001]) {
      expect((await setSmart(client.id, { searchesPerMinute: limit })).statusCode).toBe(400);
    }
    const row = await queryOne<{ jwks: unknown }>(t.db, sql`SELECT jwks FROM api_clients WHERE id = ${client.id}`);
    expect(row?.jwks).toBeNull();
    const doctor = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/api-clients/${client.id}/smart`,
      headers: { cookie: doctorCookie },
      payload: { jwks: { keys: [key.jwk] }, searchesPerMinute: null, openingsPerHour: null },
    });
    expect(doctor.statusCode).toBe(403);
    const ok = await setSmart(client.id, { jwks: { keys: [key.jwk] }, searchesPerMinute: 5, openingsPerHour: 7 });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ searchesPerMinute: 5, openingsPerHour: 7, jwks: { keys: [{ kid: key.kid }] } });
    const audit = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM security_events WHERE event_type = 'API_CLIENT_SMART_SET' AND metadata->>'apiClientId' = ${client.id}`,
    );
    expect(audit?.n).toBe(1);
  });

  it("uses the client's own search limit instead of the default", async () => {
    const key = keyPair('ES384');
    const { client, token } = await registered(['system/Patient.read'], [key]);
    expect((await setSmart(client.id, { jwks: { keys: [key.jwk] }, searchesPerMinute: 2 })).statusCode).toBe(200);
    clock.advance(60_000);
    const ip = freshIp();
    expect((await bearer(token, PATIENT_SEARCH, ip)).statusCode).toBe(200);
    expect((await bearer(token, PATIENT_SEARCH, ip)).statusCode).toBe(200);
    const over = await bearer(token, PATIENT_SEARCH, ip);
    expect(over.statusCode).toBe(429);
    // Back to the default (generous in tests): searching works again at once.
    expect((await setSmart(client.id, { jwks: { keys: [key.jwk] }, searchesPerMinute: null })).statusCode).toBe(200);
    expect((await bearer(token, PATIENT_SEARCH, ip)).statusCode).toBe(200);
  });
});

describe('the bad-token lock-out', () => {
  it('locks out a broken client by its token, not the other clients behind the same address', async () => {
    const ip = freshIp();
    const { token: good } = await createClient('Neighbour', ['system/Patient.read']);
    const broken = `nhrc_${'x'.repeat(43)}`;
    const statuses: number[] = [];
    for (let i = 0; i < BAD_TOKEN_MAX + 5; i++) statuses.push((await bearer(broken, PATIENT_SEARCH, ip)).statusCode);
    expect(statuses.slice(0, BAD_TOKEN_MAX)).toEqual(Array(BAD_TOKEN_MAX).fill(401));
    expect(statuses.slice(BAD_TOKEN_MAX)).toEqual(Array(5).fill(429));
    // Client B, a good token from the same address, still works.
    expect((await bearer(good, PATIENT_SEARCH, ip)).statusCode).toBe(200);
    // The broken token is refused from any address.
    expect((await bearer(broken, PATIENT_SEARCH, freshIp())).statusCode).toBe(429);
    clock.advance(900_001);
    expect((await bearer(broken, PATIENT_SEARCH, ip)).statusCode).toBe(401);
  });
});

describe('CORS for configured origins', () => {
  it('answers preflights on the FHIR base and the token endpoint for a configured origin only', async () => {
    for (const url of ['/fhir/R4/Patient', '/fhir/R4/auth/token']) {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: CORS_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe(CORS_ORIGIN);
      expect(res.headers['access-control-allow-headers']).toContain('Authorization');
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
      const stranger = await t.app.inject({
        method: 'OPTIONS',
        url,
        headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
      });
      expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
    }
    const api = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin: CORS_ORIGIN } });
    expect(api.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets the configured origin get a token and search with it; refuses another origin', async () => {
    const key = keyPair('RS384');
    const { client } = await registered(['system/Patient.read'], [key]);
    const jwt = assertion(client.id, key);
    const fields = {
      grant_type: 'client_credentials',
      scope: 'system/Patient.rs',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: jwt,
    };
    const evil = await t.app.inject({ ...form(fields), headers: { ...form(fields).headers, origin: 'https://evil.example' } });
    expect(evil.statusCode).toBe(403);
    const res = await t.app.inject({ ...form(fields), headers: { ...form(fields).headers, origin: CORS_ORIGIN } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe(CORS_ORIGIN);
    const search = await bearer(res.json().access_token, PATIENT_SEARCH, freshIp(), { origin: CORS_ORIGIN });
    expect(search.statusCode).toBe(200);
    expect(search.headers['access-control-allow-origin']).toBe(CORS_ORIGIN);
    // A cookie session from the configured origin is still a cross-site request: refused.
    const cookie = await t.app.inject({
      method: 'POST',
      url: '/fhir/R4/Patient/$match',
      headers: { origin: CORS_ORIGIN, cookie: doctorCookie, 'content-type': 'application/fhir+json' },
      payload: JSON.stringify({ resourceType: 'Parameters' }),
    });
    expect(cookie.statusCode).toBe(403);
  });
});
