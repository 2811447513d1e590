// FHIR system clients (issue 14 item 5, decision 020), through the real app on a real database: an administrator
// creates a client and gets its token once; the token authenticates on /fhir/ only, as the client's own account,
// bounded by its scopes; only its hash is stored; revoked and unknown tokens are refused (and throttled per IP);
// the account can never sign in and is in no staff list; every administrator action is audited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { API_CLIENT_TOKEN_PATTERN, type ApiClient, type CreatedApiClient } from '../../../contracts/api-clients';
import { ROLE_IDS } from '../../../contracts/constants';
import { createSession } from '../../context/session';
import { inAuditedTransaction } from '../../context/data-context';
import { staffActor, staffScope } from '../../context/guards';
import { testClock } from '../../test/clock';
import { TestAuthenticator } from '../../test/webauthn-authenticator';
import { queryOne, queryRows } from '../../test/sql';
import { signInAsClientCreator } from '../../test/api-client-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app';
import { NO_PASSWORD } from './api-clients.service';
import { requireFhirAccess } from './fhir-access';

const clock = testClock(new Date('2026-03-02T08:00:00Z'));
const BAD_TOKEN_MAX = 3;

/**
 * FHIR routes of this test only: each is guarded by requireFhirAccess and
 * answers who asked; the read also writes an audit row through the data context, as every FHIR read will.
 */
function registerProbeRoutes(app: FastifyInstance, t: () => TestApp): void {
  const whoAsked = (request: Parameters<typeof staffActor>[0]) => {
    const actor = staffActor(request);
    return {
      userId: actor.userId,
      client: actor.client ? { ...actor.client, scopes: [...actor.client.scopes].sort() } : null,
      permissions: [...actor.permissions].sort(),
    };
  };
  app.get('/fhir/R4/_probe/Condition', { preHandler: requireFhirAccess('Condition', 'read') }, async (request) =>
    inAuditedTransaction(staffScope(request, t().db, clock.now), async (ctx) =>
      ctx.audited(whoAsked(request), { action: 'SEARCH', resourceType: 'DIAGNOSIS', newValues: { probe: 'fhir' } }),
    ),
  );
  app.post('/fhir/R4/_probe/Condition', { preHandler: requireFhirAccess('Condition', 'write') }, async (request) => whoAsked(request));
  app.get('/fhir/R4/_probe/AuditEvent', { preHandler: requireFhirAccess('AuditEvent', 'read') }, async (request) => whoAsked(request));
}

let t: TestApp;
let admin: { cookie: string; user: { id: string } };
let doctor: { cookie: string; user: { id: string } };
beforeAll(async () => {
  const base = testConfig();
  t = await createTestApp(
    {
      now: clock.now,
      rateLimits: {
        ...base.rateLimits,
        badToken: { max: BAD_TOKEN_MAX, windowMs: 900_000 },
        badTokenAddress: { max: BAD_TOKEN_MAX, windowMs: 900_000 },
      },
    },
    (probe) => registerProbeRoutes(probe.app, () => probe),
  );
  // A creator holding what the clients below are given (issue 21 item 5: a client never gets more than its creator).
  admin = await signInAsClientCreator(t);
  doctor = await signInAs(t, ROLE_IDS.doctor);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

let ipCounter = 1;
/** Each test's bearer calls come from their own address unless it says otherwise, so the throttle stays per test. */
const freshIp = (): string => `10.20.0.${ipCounter++}`;

const asAdmin = (options: InjectOptions) => t.app.inject({ ...options, headers: { ...options.headers, cookie: admin.cookie } });

async function createClient(name: string, scopes: string[]): Promise<CreatedApiClient> {
  const res = await asAdmin({ method: 'POST', url: '/api/admin/api-clients', payload: { name, scopes } });
  expect(res.statusCode).toBe(201);
  return res.json() as CreatedApiClient;
}

const bearer = (token: string, options: InjectOptions, remoteAddress: string) =>
  t.app.inject({ ...options, remoteAddress, headers: { ...options.headers, authorization: `Bearer ${token}` } });

const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');

describe('creating a client', () => {
  it('answers the token once; only its SHA-256 is stored; the list never shows a token or hash', async () => {
    const res = await asAdmin({
      method: 'POST',
      url: '/api/admin/api-clients',
      payload: { name: '  Katutura Lab  ', scopes: ['system/Condition.read', 'patient/Observation.write', 'system/Condition.read'] },
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const created = res.json() as CreatedApiClient;
    expect(created.token).toMatch(API_CLIENT_TOKEN_PATTERN);
    expect(created.client).toMatchObject({
      name: 'Katutura Lab',
      scopes: ['patient/Observation.write', 'system/Condition.read'],
      revokedAt: null,
    });

    const stored = await queryOne<{ token_hash: string; everything: string }>(
      t.db,
      sql`SELECT c.token_hash, row_to_json(c)::text || row_to_json(u)::text AS everything
            FROM api_clients c JOIN users u ON u.id = c.user_id WHERE c.id = ${created.client.id}`,
    );
    expect(stored?.token_hash).toBe(sha256(created.token));
    expect(stored?.everything).not.toContain(created.token);
    expect(stored?.everything).not.toContain(created.token.slice(5)); // nor its random part
    const events = await queryRows(
      t.db,
      sql`SELECT metadata::text AS m FROM security_events WHERE metadata::text LIKE ${'%' + created.token.slice(5, 20) + '%'}`,
    );
    expect(events).toEqual([]);

    const list = await asAdmin({ method: 'GET', url: '/api/admin/api-clients' });
    expect(list.statusCode).toBe(200);
    const listed = (list.json() as Record<string, unknown>[]).find((c) => c.id === created.client.id);
    expect(Object.keys(listed ?? {}).sort()).toEqual(
      [
        'createdAt',
        'createdBy',
        'expiresAt',
        'id',
        'jwks',
        'lastUsedAt',
        'name',
        'openingsPerHour',
        'revokedAt',
        'revokedBy',
        'scopes',
        'searchesPerMinute',
        'tokenIssuedAt',
        'userId',
      ].sort(),
    );
    expect(list.body).not.toContain(created.token.slice(5));
    expect(list.body).not.toContain(sha256(created.token));
  });

  it('refuses unknown scopes, no scopes, a blank name and unknown fields with 400, creating nothing', async () => {
    const before = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM api_clients`);
    for (const payload of [
      { name: 'Lab', scopes: ['patient/Foo.read'] },
      { name: 'Lab', scopes: ['Condition.read'] },
      { name: 'Lab', scopes: ['system/Condition.delete'] },
      { name: 'Lab', scopes: [] },
      { name: '   ', scopes: ['system/Condition.read'] },
      { name: 'Lab', scopes: ['system/Condition.read'], roleId: 1 },
      { name: 'Lab', scopes: 'system/Condition.read' },
    ]) {
      const res = await asAdmin({ method: 'POST', url: '/api/admin/api-clients', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(await queryOne(t.db, sql`SELECT count(*)::int AS n FROM api_clients`)).toEqual(before);
  });

  it('audits create, list and revoke under the administrator, with security events', async () => {
    const since = (await queryOne<{ id: number }>(t.db, sql`SELECT coalesce(max(id), 0)::int AS id FROM audit_logs`))!.id;
    const { client } = await createClient('Audited Pharmacy', ['system/MedicationStatement.read']);
    await asAdmin({ method: 'GET', url: '/api/admin/api-clients' });
    expect((await asAdmin({ method: 'POST', url: `/api/admin/api-clients/${client.id}/revoke` })).statusCode).toBe(200);
    const rows = await queryRows<{
      action: string;
      user_id: string;
      resource_type: string;
      resource_id: string | null;
      new_values: unknown;
    }>(
      t.db,
      sql`SELECT action, user_id, resource_type, resource_id, new_values FROM audit_logs
           WHERE id > ${since} AND user_id = ${admin.user.id} AND resource_type = 'USER' ORDER BY id`,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'CREATE',
        resource_id: client.userId,
        new_values: {
          apiClient: { id: client.id, name: 'Audited Pharmacy', scopes: ['system/MedicationStatement.read'] },
          permissions: ['patients.search', 'records.read'],
          token: { fingerprint: expect.stringMatching(/^[0-9a-f]{12}$/), expiresAt: client.expiresAt },
        },
      }),
      expect.objectContaining({ action: 'VIEW', resource_id: null }),
      expect.objectContaining({ action: 'UPDATE', resource_id: client.userId }),
    ]);
    const events = await queryRows<{ event_type: string }>(
      t.db,
      sql`SELECT event_type FROM security_events WHERE user_id = ${client.userId} ORDER BY id`,
    );
    expect(events.map((e) => e.event_type)).toEqual(['API_CLIENT_CREATED', 'API_CLIENT_REVOKED']);
  });
});

describe('token expiry and new tokens (decision 030)', () => {
  const probe = (token: string, ip: string) => bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip);
  const DAY = 86_400_000;

  it('stores the lifetime the administrator picked (90 days unless another), and refuses any other with 400, creating nothing', async () => {
    const picked = await asAdmin({
      method: 'POST',
      url: '/api/admin/api-clients',
      payload: { name: 'Yearly Lab', scopes: ['system/Condition.read'], lifetimeDays: 365 },
    });
    expect(picked.statusCode).toBe(201);
    expect(Date.parse(picked.json().client.expiresAt)).toBe(clock.now().getTime() + 365 * DAY);
    const { client } = await createClient('Default Lab', ['system/Condition.read']);
    expect(Date.parse(client.expiresAt)).toBe(clock.now().getTime() + 90 * DAY);
    expect(client.tokenIssuedAt).toBe(clock.now().toISOString());

    const before = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM api_clients`);
    for (const lifetimeDays of [7, 0, -30, 3650, '90', null, 90.5]) {
      const res = await asAdmin({
        method: 'POST',
        url: '/api/admin/api-clients',
        payload: { name: 'Lab', scopes: ['system/Condition.read'], lifetimeDays },
      });
      expect(res.statusCode, String(lifetimeDays)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    }
    expect(await queryOne(t.db, sql`SELECT count(*)::int AS n FROM api_clients`)).toEqual(before);
  });

  it('refuses a token past its expiry with 401 TOKEN_EXPIRED, not counted toward the bad-token throttle', async () => {
    const ip = freshIp();
    const { client, token } = await createClient('Expiring Lab', ['system/Condition.read']);
    expect((await probe(token, ip)).statusCode).toBe(200);
    await t.db.execute(
      sql`UPDATE api_clients SET expires_at = ${new Date(clock.now().getTime() - 60_000).toISOString()}::timestamptz WHERE id = ${client.id}`,
    );
    for (let i = 0; i <= BAD_TOKEN_MAX + 1; i++) {
      const refused = await probe(token, ip);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toMatchObject({ resourceType: 'OperationOutcome' });
      expect(JSON.stringify(refused.json())).toContain('TOKEN_EXPIRED');
      expect(refused.headers['www-authenticate']).toMatch(/error="invalid_token", error_description="The token has expired"/);
    }
    const listed = ((await asAdmin({ method: 'GET', url: '/api/admin/api-clients' })).json() as ApiClient[]).find(
      (c) => c.id === client.id,
    );
    expect(Date.parse(listed!.expiresAt)).toBeLessThan(clock.now().getTime());
  });

  it('issues a new token: shown once, the old one refused at once, the new one works, audited by fingerprint only', async () => {
    const ip = freshIp();
    const { client, token: old } = await createClient('Rotating Pharmacy', ['system/Condition.read']);
    await t.db.execute(
      sql`UPDATE api_clients SET expires_at = ${new Date(clock.now().getTime() - 60_000).toISOString()}::timestamptz WHERE id = ${client.id}`,
    );
    const since = (await queryOne<{ id: number }>(t.db, sql`SELECT coalesce(max(id), 0)::int AS id FROM audit_logs`))!.id;

    const res = await asAdmin({ method: 'POST', url: `/api/admin/api-clients/${client.id}/token`, payload: { lifetimeDays: 30 } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const issued = res.json() as CreatedApiClient;
    expect(issued.token).toMatch(API_CLIENT_TOKEN_PATTERN);
    expect(issued.token).not.toBe(old);
    expect(Date.parse(issued.client.expiresAt)).toBe(clock.now().getTime() + 30 * DAY);
    const oldRefused = await probe(old, ip);
    expect(oldRefused.statusCode).toBe(401);
    expect(JSON.stringify(oldRefused.json())).toContain('INVALID_TOKEN');
    expect((await probe(issued.token, ip)).statusCode).toBe(200);

    const rows = await queryRows<{ action: string; old_values: unknown; new_values: unknown; everything: string }>(
      t.db,
      sql`SELECT action, old_values, new_values, row_to_json(a)::text AS everything FROM audit_logs a
           WHERE id > ${since} AND user_id = ${admin.user.id} AND resource_type = 'USER' ORDER BY id`,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        action: 'UPDATE',
        old_values: { token: { fingerprint: sha256(old).slice(0, 12) } },
        new_values: {
          apiClient: { id: client.id },
          token: { fingerprint: sha256(issued.token).slice(0, 12), expiresAt: issued.client.expiresAt },
        },
      }),
    ]);
    for (const token of [old, issued.token]) {
      expect(rows[0]!.everything).not.toContain(token.slice(5));
      expect(rows[0]!.everything).not.toContain(sha256(token));
    }
    const events = await queryRows<{ event_type: string }>(
      t.db,
      sql`SELECT event_type FROM security_events WHERE user_id = ${client.userId} ORDER BY id`,
    );
    expect(events.map((e) => e.event_type)).toEqual(['API_CLIENT_CREATED', 'API_CLIENT_TOKEN_ISSUED']);
  });

  it('refuses a new token to other roles (403) and signed-out callers (401), changing nothing; 404 unknown, 409 revoked, 400 bad lifetime', async () => {
    const { client } = await createClient('Guarded Lab', ['system/Condition.read']);
    const hashOf = async () =>
      (await queryOne<{ h: string }>(t.db, sql`SELECT token_hash AS h FROM api_clients WHERE id = ${client.id}`))!.h;
    const before = await hashOf();
    const url = `/api/admin/api-clients/${client.id}/token`;
    const asDoctor = await t.app.inject({ method: 'POST', url, headers: { cookie: doctor.cookie }, payload: { lifetimeDays: 90 } });
    expect(asDoctor.statusCode).toBe(403);
    expect(asDoctor.json()).toMatchObject({ code: 'PERMISSION_REQUIRED' });
    expect((await t.app.inject({ method: 'POST', url, payload: { lifetimeDays: 90 } })).statusCode).toBe(401);
    const badLifetime = await asAdmin({ method: 'POST', url, payload: { lifetimeDays: 45 } });
    expect(badLifetime.statusCode).toBe(400);
    expect(await hashOf()).toBe(before);

    const unknown = await asAdmin({ method: 'POST', url: `/api/admin/api-clients/${randomUUID()}/token`, payload: { lifetimeDays: 90 } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'API_CLIENT_NOT_FOUND' });
    expect((await asAdmin({ method: 'POST', url: `/api/admin/api-clients/${client.id}/revoke` })).statusCode).toBe(200);
    const revoked = await asAdmin({ method: 'POST', url, payload: { lifetimeDays: 90 } });
    expect(revoked.statusCode).toBe(409);
    expect(revoked.json()).toMatchObject({ code: 'API_CLIENT_REVOKED' });
    expect(await hashOf()).toBe(before);
  });
});

describe('the token on /fhir/', () => {
  it('authenticates as the client account, bounded by its scopes; the audit row names the client', async () => {
    const ip = freshIp();
    const { client, token } = await createClient('Oshakati Lab', ['system/Condition.read']);
    const metadata = await bearer(token, { method: 'GET', url: '/fhir/R4/metadata' }, ip);
    expect(metadata.statusCode).toBe(200);
    expect(metadata.json()).toMatchObject({ resourceType: 'CapabilityStatement' });
    const res = await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      userId: client.userId,
      client: { id: client.id, name: 'Oshakati Lab', scopes: ['system/Condition.read'], limits: { search: null, accessGrant: null } },
      permissions: ['patients.search', 'records.read'], // records.write and audit.read withheld: no scope needs them
    });
    const [row] = await queryRows<{ user_id: string; user_name: string; session_id: string | null }>(
      t.db,
      sql`SELECT user_id, user_name, session_id FROM audit_logs WHERE action = 'SEARCH' AND user_id = ${client.userId}`,
    );
    expect(row).toEqual({ user_id: client.userId, user_name: 'Oshakati Lab', session_id: null });
  });

  it('refuses what the scopes do not allow with 403 SCOPE_NOT_GRANTED as an OperationOutcome', async () => {
    const ip = freshIp();
    const { token } = await createClient('Read-only lab', ['system/Condition.read']);
    for (const options of [
      { method: 'POST' as const, url: '/fhir/R4/_probe/Condition', payload: { resourceType: 'Condition' } },
      { method: 'GET' as const, url: '/fhir/R4/_probe/AuditEvent' },
    ]) {
      const res = await bearer(token, options, ip);
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toContain('application/fhir+json');
      expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
      expect(res.json()).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'forbidden', details: { coding: [{ code: 'SCOPE_NOT_GRANTED' }] } }],
      });
    }
    const writer = await createClient('Ward system', ['system/Condition.*', 'system/AuditEvent.read']);
    const write = await bearer(
      writer.token,
      { method: 'POST', url: '/fhir/R4/_probe/Condition', payload: { resourceType: 'Condition' } },
      ip,
    );
    expect(write.statusCode).toBe(200);
    expect(write.json().permissions).toEqual(['audit.read', 'patients.search', 'records.read', 'records.write']);
    expect((await bearer(writer.token, { method: 'GET', url: '/fhir/R4/_probe/AuditEvent' }, ip)).statusCode).toBe(200);
  });

  it("lets a staff session through requireFhirAccess (its permissions are the route's to check) and refuses the signed out", async () => {
    const res = await t.app.inject({ method: 'POST', url: '/fhir/R4/_probe/Condition', headers: { cookie: doctor.cookie }, payload: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ userId: doctor.user.id, client: null });
    const out = await t.app.inject({ method: 'GET', url: '/fhir/R4/_probe/Condition' });
    expect(out.statusCode).toBe(401);
    expect(out.headers['www-authenticate']).toContain('Bearer');
    expect(out.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'login' }] });
  });

  it('writes last_used_at at most once a minute', async () => {
    const ip = freshIp();
    const { client, token } = await createClient('Clinic system', ['system/*.read']);
    const lastUsed = async (): Promise<number | null> =>
      (
        await queryOne<{ at: number | null }>(
          t.db,
          sql`SELECT (extract(epoch FROM last_used_at) * 1000)::float8 AS at FROM api_clients WHERE id = ${client.id}`,
        )
      )?.at ?? null;
    expect(await lastUsed()).toBeNull();
    await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip);
    const first = await lastUsed();
    expect(first).toBe(clock.now().getTime());
    clock.advance(30_000);
    await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip);
    expect(await lastUsed()).toBe(first);
    clock.advance(31_000);
    await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip);
    expect(await lastUsed()).toBe(clock.now().getTime());
  });

  it('refuses revoked, unknown and malformed tokens with 401 invalid_token as an OperationOutcome', async () => {
    const ip = freshIp();
    const { client, token } = await createClient('Soon revoked', ['system/Condition.read']);
    expect((await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip)).statusCode).toBe(200);
    const revoked = await asAdmin({ method: 'POST', url: `/api/admin/api-clients/${client.id}/revoke` });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: client.id, revokedBy: 'Test Role990' });
    expect(revoked.json().revokedAt).not.toBeNull();
    const unknown = `nhrc_${'A'.repeat(43)}`;
    for (const [value, address] of [
      [token, ip],
      [unknown, freshIp()],
      ['not-a-token', freshIp()],
    ] as const) {
      const res = await bearer(value, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, address);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="nhr-fhir", error="invalid_token"');
      expect(res.headers['content-type']).toContain('application/fhir+json');
      expect(res.json()).toMatchObject({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: 'login', details: { coding: [{ code: 'INVALID_TOKEN' }] } }],
      });
    }
    const empty = await t.app.inject({
      method: 'GET',
      url: '/fhir/R4/_probe/Condition',
      remoteAddress: freshIp(),
      headers: { authorization: 'Bearer' },
    });
    expect(empty.statusCode).toBe(401);
    // A bearer header wins over a session cookie on /fhir/: a bad token is not rescued by the doctor's session.
    const both = await t.app.inject({
      method: 'GET',
      url: '/fhir/R4/_probe/Condition',
      remoteAddress: freshIp(),
      headers: { authorization: `Bearer ${unknown}`, cookie: doctor.cookie },
    });
    expect(both.statusCode).toBe(401);
    const again = await asAdmin({ method: 'POST', url: `/api/admin/api-clients/${client.id}/revoke` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'API_CLIENT_REVOKED' });
    const missing = await asAdmin({ method: 'POST', url: '/api/admin/api-clients/00000000-0000-4000-8000-000000000000/revoke' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'API_CLIENT_NOT_FOUND' });
  });

  it('throttles bad tokens per IP (different tokens): past the address limit every bearer call from that IP is 429 until the window ends', async () => {
    const ip = freshIp();
    const { token } = await createClient('Throttled neighbour', ['system/Condition.read']);
    for (let i = 0; i < BAD_TOKEN_MAX; i++) {
      expect((await bearer(`nhrc_${String(i).repeat(43)}`, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip)).statusCode).toBe(401);
    }
    const over = await bearer('nhrc_wrong', { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip);
    expect(over.statusCode).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    expect(over.json()).toMatchObject({ resourceType: 'OperationOutcome', issue: [{ code: 'throttled' }] });
    expect((await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip)).statusCode).toBe(429);
    expect((await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, freshIp())).statusCode).toBe(200);
    clock.advance(900_001);
    expect((await bearer(token, { method: 'GET', url: '/fhir/R4/_probe/Condition' }, ip)).statusCode).toBe(200);
  });
});

describe('the token elsewhere and the client account', () => {
  it('authenticates nothing under /api/: the header is never read there', async () => {
    const { token } = await createClient('Nosy system', ['system/*.*']);
    const ip = freshIp();
    for (const url of ['/api/auth/user', '/api/admin/api-clients', '/api/audit-logs']) {
      const res = await bearer(token, { method: 'GET', url }, ip);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ message: 'Authentication required', code: 'UNAUTHENTICATED' });
    }
    // Nor does a bad token there count toward the throttle, or a good one spoil a session.
    for (let i = 0; i < BAD_TOKEN_MAX + 2; i++)
      expect((await bearer('nhrc_bad', { method: 'GET', url: '/api/health' }, ip)).statusCode).toBe(200);
    const withSession = await t.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: { cookie: doctor.cookie, authorization: `Bearer ${token}` },
    });
    expect(withSession.json()).toMatchObject({ id: doctor.user.id });
  });

  it('can never sign in: password, second factor, a forged session; and no staff decision applies to it', async () => {
    const { client } = await createClient('Locked out system', ['system/Condition.read']);
    const email = (await queryOne<{ email: string }>(t.db, sql`SELECT email FROM users WHERE id = ${client.userId}`))!.email;
    for (const password of [NO_PASSWORD, 'correct horse battery staple', '']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: freshIp(), payload: { email, password } });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.cookies.find((c) => c.name === 'nhr_sid')).toBeUndefined();
    }
    const second = await t.app.inject({ method: 'POST', url: '/api/auth/login/second-factor', payload: { code: '123456' } });
    expect(second.statusCode).toBe(401);
    // Even a session row made for the account (no route makes one) opens nothing, under /api/ or /fhir/.
    const forged = `nhr_sid=${(await createSession(t.db, { kind: 'staff', userId: client.userId }, clock.now())).token}`;
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: forged } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/fhir/R4/_probe/Condition', headers: { cookie: forged } })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/auth/mfa', headers: { cookie: forged } })).statusCode).toBe(401);
    // Manage Users cannot approve or reject it.
    const approve = await asAdmin({ method: 'POST', url: `/api/admin/users/${client.userId}/approve` });
    expect(approve.json()).toMatchObject({ code: 'USER_NOT_PENDING' });
    const reject = await asAdmin({ method: 'DELETE', url: `/api/admin/users/${client.userId}/reject` });
    expect(reject.json()).toMatchObject({ code: 'USER_NOT_PENDING' });
    // Registration cannot ask for the system client role.
    const register = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      remoteAddress: freshIp(),
      payload: {
        firstName: 'Sys',
        lastName: 'Tem',
        email: 'sys@health.test.na',
        password: 'correct horse battery staple',
        roleId: 900,
        facility: 'Emed',
        department: 'Emergency',
      },
    });
    expect(register.statusCode).toBe(400);
    expect(register.json().issues).toEqual([expect.objectContaining({ path: 'roleId' })]);
  });

  it('cannot sign in with a passkey, even one planted on its account (no route registers one for it)', async () => {
    const { client } = await createClient('Passkey-less system', ['system/Condition.read']);
    // A doctor registers a passkey through the real routes; the credential is then moved onto the client's account.
    const ip = freshIp();
    const { cookie } = await signInAs(t, ROLE_IDS.doctor);
    const origin = t.config.webauthn.origins[0]!;
    const device = new TestAuthenticator({ origin });
    const call = (options: InjectOptions, withCookie: boolean) =>
      t.app.inject({ ...options, remoteAddress: ip, headers: withCookie ? { cookie } : {} });
    const regOptions = await call({ method: 'POST', url: '/api/auth/passkeys/registration-options' }, true);
    const reg = await call(
      { method: 'POST', url: '/api/auth/passkeys', payload: { name: 'Planted', response: device.register(regOptions.json()) } },
      true,
    );
    expect(reg.statusCode, reg.body).toBe(201);
    await t.db.execute(sql`UPDATE webauthn_credentials SET user_id = ${client.userId} WHERE id = ${reg.json().id as string}`);
    const signInOptions = await call({ method: 'POST', url: '/api/auth/passkey/options', payload: { purpose: 'sign_in' } }, false);
    const res = await call(
      { method: 'POST', url: '/api/auth/passkey-login', payload: { response: device.assert(signInOptions.json()) } },
      false,
    );
    expect(res.statusCode).toBe(401);
    expect(res.cookies.find((c) => c.name === 'nhr_sid')).toBeUndefined();
    // Refused for the account, not for a broken answer: the same answer signs the doctor in (checked by passkeys.test.ts).
    const failure = await queryOne<{ reason: string }>(
      t.db,
      sql`SELECT metadata->>'reason' AS reason FROM security_events WHERE event_type = 'LOGIN_FAILURE' ORDER BY id DESC LIMIT 1`,
    );
    expect(failure?.reason).toBe('account_inactive');
  });

  it('is in no staff list: pending, active, user stats, second-factor policies', async () => {
    const { client } = await createClient('Invisible system', ['system/Condition.read']);
    const pending = await asAdmin({ method: 'GET', url: '/api/admin/pending-users' });
    const active = await asAdmin({ method: 'GET', url: '/api/admin/active-users' });
    for (const list of [pending, active]) expect((list.json() as { id: string }[]).map((u) => u.id)).not.toContain(client.userId);
    const stats = (await asAdmin({ method: 'GET', url: '/api/admin/user-stats' })).json() as {
      total: number;
      byStatus: Record<string, number>;
      byRole: { roleId: number }[];
    };
    const staff = await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM users WHERE account_status <> 'system'`);
    expect(stats.total).toBe(staff?.n);
    expect(stats.byStatus).not.toHaveProperty('system');
    expect(stats.byRole.map((r) => r.roleId)).not.toContain(900);
    const policies = (await asAdmin({ method: 'GET', url: '/api/admin/mfa-policy' })).json() as { roleId: number }[];
    expect(policies.map((p) => p.roleId)).not.toContain(900);
    const setPolicy = await asAdmin({ method: 'PUT', url: '/api/admin/mfa-policy/900', payload: { policy: 'required' } });
    expect(setPolicy.statusCode).toBe(404);
  });

  it('refuses staff without users.approve on every route, and the signed out', async () => {
    const { client } = await createClient('Guarded', ['system/Condition.read']);
    const before = await queryOne(t.db, sql`SELECT count(*)::int AS n, count(revoked_at)::int AS r FROM api_clients`);
    for (const roleId of [ROLE_IDS.doctor, ROLE_IDS.nurse, ROLE_IDS.receptionist, ROLE_IDS.auditor]) {
      const { cookie } = roleId === ROLE_IDS.doctor ? doctor : await signInAs(t, roleId);
      for (const options of [
        { method: 'GET' as const, url: '/api/admin/api-clients' },
        { method: 'POST' as const, url: '/api/admin/api-clients', payload: { name: 'Sneaky', scopes: ['system/*.*'] } },
        { method: 'POST' as const, url: `/api/admin/api-clients/${client.id}/revoke` },
      ]) {
        const res = await t.app.inject({ ...options, headers: { cookie } });
        expect(res.statusCode, `${roleId} ${options.method} ${options.url}`).toBe(403);
        expect(res.json()).toMatchObject({ code: 'PERMISSION_REQUIRED' });
        const out = await t.app.inject(options);
        expect(out.statusCode).toBe(401);
      }
    }
    expect(await queryOne(t.db, sql`SELECT count(*)::int AS n, count(revoked_at)::int AS r FROM api_clients`)).toEqual(before);
  });
});
