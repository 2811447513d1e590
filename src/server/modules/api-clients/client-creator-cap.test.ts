// Issue 21 item 5 (decision 034): the System Administrator (no records.read) made a system/*.* client, broke the glass
// with it, read the record and marked that access justified. A client may not be given more than its creator may
// do (at creation and when a new token is issued), and nobody reviews an access made by a client they created.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../../../contracts/constants';
import { CLIENT_CREATOR_PERMISSIONS, signInAsClientCreator } from '../../test/api-client-fixtures';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { queryOne } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let sysAdmin: { cookie: string };
let creator: { cookie: string; user: { id: string } };
let auditor: { cookie: string };
let patient: TestPatient;
beforeAll(async () => {
  t = await createTestApp();
  sysAdmin = await signInAs(t, ROLE_IDS.systemAdmin);
  // A creator who may also review: what the System Administrator was in the attack, plus records.read.
  creator = await signInAsClientCreator(t, [...CLIENT_CREATOR_PERMISSIONS, 'audit.review']);
  auditor = await signInAs(t, ROLE_IDS.auditor);
  patient = await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo' });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const count = async (table: 'api_clients' | 'users'): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))!.n;

const createClient = (cookie: string, scopes: string[], name = 'Probe client') =>
  t.app.inject({ method: 'POST', url: '/api/admin/api-clients', headers: { cookie }, payload: { name, scopes } });

describe('a client never gets more than its creator may do', () => {
  it('refuses the System Administrator a system/*.* client with 403 SCOPE_EXCEEDS_CREATOR, creating nothing', async () => {
    const before = { clients: await count('api_clients'), users: await count('users') };
    for (const scopes of [['system/*.*'], ['system/Patient.read'], ['system/Condition.read'], ['system/Observation.write']]) {
      const res = await createClient(sysAdmin.cookie, scopes);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'SCOPE_EXCEEDS_CREATOR' });
    }
    const res = await createClient(sysAdmin.cookie, ['system/*.*']);
    expect(res.json().lacking).toEqual(['records.read', 'records.write']);
    expect({ clients: await count('api_clients'), users: await count('users') }).toEqual(before);
  });

  it('lets the System Administrator make a client within their own permissions (AuditEvent: audit.read)', async () => {
    const res = await createClient(sysAdmin.cookie, ['system/AuditEvent.read'], 'Audit mirror');
    expect(res.statusCode).toBe(201);
  });

  it('refuses a new token for a clinical client to an administrator without its permissions, changing nothing', async () => {
    const made = await createClient(creator.cookie, ['system/Condition.read'], 'Katutura lab');
    expect(made.statusCode).toBe(201);
    const id = made.json().client.id as string;
    const hash = async () => queryOne<{ token_hash: string }>(t.db, sql`SELECT token_hash FROM api_clients WHERE id = ${id}`);
    const before = await hash();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/api-clients/${id}/token`,
      headers: { cookie: sysAdmin.cookie },
      payload: { lifetimeDays: 30 },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'SCOPE_EXCEEDS_CREATOR' });
    expect(await hash()).toEqual(before);
    const own = await t.app.inject({
      method: 'POST',
      url: `/api/admin/api-clients/${id}/token`,
      headers: { cookie: creator.cookie },
      payload: { lifetimeDays: 30 },
    });
    expect(own.statusCode).toBe(200);
  });
});

describe('nobody reviews an access made by a client they created', () => {
  it('refuses the creator’s verdict with 403 REVIEW_OWN_CLIENT_ACCESS, recording nothing; another reviewer may', async () => {
    const made = await createClient(creator.cookie, ['system/*.*'], 'Night shift bridge');
    expect(made.statusCode).toBe(201);
    const { token, client } = made.json() as { token: string; client: { userId: string } };
    const glass = await t.app.inject({
      method: 'POST',
      url: `/fhir/R4/Patient/${patient.id}/$access`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' },
      payload: JSON.stringify({
        resourceType: 'Parameters',
        parameter: [
          { name: 'consent', valueBoolean: false },
          { name: 'reason', valueString: 'emergency transfer' },
        ],
      }),
    });
    expect(glass.statusCode).toBe(201);
    const row = await queryOne<{ id: number }>(
      t.db,
      sql`SELECT id::int AS id FROM audit_logs WHERE user_id = ${client.userId} AND compliance_flags->>'type' = 'BREAK_GLASS'`,
    );
    expect(row).toBeDefined();
    const verdicts = async () =>
      (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs WHERE resource_type = 'ACCESS_REVIEW'`))!.n;
    const before = await verdicts();
    const verdict = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/privacy-reviews/${row!.id}/verdict`,
        headers: { cookie },
        payload: { verdict: 'JUSTIFIED', note: 'Looks fine to me' },
      });
    const own = await verdict(creator.cookie);
    expect(own.statusCode).toBe(403);
    expect(own.json()).toMatchObject({ code: 'REVIEW_OWN_CLIENT_ACCESS' });
    expect(await verdicts()).toBe(before);
    expect((await verdict(auditor.cookie)).statusCode).toBe(201);
    expect(await verdicts()).toBe(before + 1);
  });
});
