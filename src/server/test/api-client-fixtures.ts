// A creator of FHIR system clients for tests (issue 21 item 5, decision 034): a client may only be given permissions
// its creator holds, and no role of DESIGN.md §4 holds users.approve with records.read. Tests that need a clinical
// client sign in a user of a test-only role holding users.approve plus the permissions the client needs.
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Permission } from '../../contracts/constants';
import type { Db } from '../db/client';
import { createStaffUser, signIn, type StaffUser } from './staff';
import type { TestApp } from './test-app';

/** The test-only role's id: outside SPEC §6's ids. */
export const CLIENT_CREATOR_ROLE_ID = 990;

/** What the test role holds unless a test says otherwise: managing clients and everything a client may be given. */
export const CLIENT_CREATOR_PERMISSIONS: readonly Permission[] = [
  'users.approve',
  'patients.search',
  'records.read',
  'records.write',
  'audit.read',
];

/** Creates the role (once per database) holding `permissions`. */
export async function ensureClientCreatorRole(
  db: Db,
  permissions: readonly Permission[] = CLIENT_CREATOR_PERMISSIONS,
  roleId = CLIENT_CREATOR_ROLE_ID,
): Promise<number> {
  await db.execute(sql`
    INSERT INTO roles (id, name, display_name, description)
    VALUES (${roleId}, ${`test_client_creator_${roleId}`}, 'Clinical systems officer (test)', 'Test role: creates system clients')
    ON CONFLICT (id) DO NOTHING`);
  for (const name of permissions) {
    await db.execute(sql`
      INSERT INTO role_permissions (role_id, permission_id)
      SELECT ${roleId}, p.id FROM permissions p WHERE p.name = ${name}
      ON CONFLICT DO NOTHING`);
  }
  return roleId;
}

/** A signed-in user of the client-creator role (the role is created when missing). */
export async function signInAsClientCreator(
  t: Pick<TestApp, 'db' | 'app'>,
  permissions: readonly Permission[] = CLIENT_CREATOR_PERMISSIONS,
  roleId = CLIENT_CREATOR_ROLE_ID,
): Promise<{ cookie: string; user: StaffUser }> {
  await ensureClientCreatorRole(t.db, permissions, roleId);
  const user = await createStaffUser(t.db, { roleId });
  return { cookie: await signIn(t.app as FastifyInstance, user.email, user.password), user };
}

/** A FHIR system client made through the API by a client creator: its bearer token and the user id it acts as. */
export async function createSystemClient(
  t: Pick<TestApp, 'db' | 'app'>,
  name: string,
  scopes: readonly string[],
): Promise<{ token: string; userId: string; bearer: { authorization: string } }> {
  const admin = await signInAsClientCreator(t);
  const created = await (t.app as FastifyInstance).inject({
    method: 'POST',
    url: '/api/admin/api-clients',
    headers: { cookie: admin.cookie },
    payload: { name, scopes },
  });
  if (created.statusCode !== 201) throw new Error(`POST /api/admin/api-clients answered ${created.statusCode}: ${created.body}`);
  const { token, client } = created.json<{ token: string; client: { userId: string } }>();
  return { token, userId: client.userId, bearer: { authorization: `Bearer ${token}` } };
}
