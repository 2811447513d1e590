// Issue 21 item 10: a clinician renamed themselves to another clinician's name and the patient's access history showed
// it. A change of one's own name now waits for an administrator (who is warned of a clash); until then, and in the
// rows written before, the old name stands; the history shows each row's staff reference, stable whatever the name.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPatient } from '../../test/patient-fixtures';
import { signInPatient } from '../../test/portal-fixtures';
import { queryOne } from '../../test/sql';
import { createStaffUser, signIn, signInAs, type StaffUser } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { staffReference } from '../portal/portal.service';

let t: TestApp;
let admin: { cookie: string; user: { id: string } };
let impostor: StaffUser;
let impostorCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, 2);
  await createStaffUser(t.db, { roleId: 3, firstName: 'Martha', lastName: 'Shikongo' });
  impostor = await createStaffUser(t.db, { roleId: 3, firstName: 'Petrus', lastName: 'Nande', facility: 'Oshakati State Hospital' });
  impostorCookie = await signIn(t.app, impostor.email, impostor.password);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const profile = (cookie: string, id: string, names: { firstName: string; lastName: string }, email: string) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/users/${id}`,
    headers: { cookie },
    payload: { ...names, email, department: 'Emergency', facility: 'Oshakati State Hospital', phoneNumber: '' },
  });
const nameOf = async (id: string) => queryOne(t.db, sql`SELECT first_name, last_name FROM users WHERE id = ${id}`);
const pending = (cookie = admin.cookie) => t.app.inject({ method: 'GET', url: '/api/admin/name-changes', headers: { cookie } });

describe('a change of one’s own name', () => {
  it('keeps the old name until an administrator decides, and shows the request with a warning of the clash', async () => {
    const res = await profile(impostorCookie, impostor.id, { firstName: 'Martha', lastName: 'Shikongo' }, impostor.email);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'Petrus',
      lastName: 'Nande',
      pendingName: { firstName: 'Martha', lastName: 'Shikongo' },
    });
    expect(await nameOf(impostor.id)).toEqual({ first_name: 'Petrus', last_name: 'Nande' });
    const me = await t.app.inject({ method: 'GET', url: '/api/auth/user', headers: { cookie: impostorCookie } });
    expect(me.json()).toMatchObject({ firstName: 'Petrus', pendingName: { firstName: 'Martha' } });

    const list = await pending();
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      expect.objectContaining({
        userId: impostor.id,
        from: { firstName: 'Petrus', lastName: 'Nande' },
        to: { firstName: 'Martha', lastName: 'Shikongo' },
        role: { name: 'doctor', displayName: 'Doctor' },
        facility: 'Oshakati State Hospital',
        sameNameAs: 1,
      }),
    ]);
  });

  it('while pending, the access history shows the old name with role, facility and the staff reference', async () => {
    const patient = await createPatient(t.db);
    const grant = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patient.id}/access`,
      headers: { cookie: impostorCookie },
      payload: { consent: true },
    });
    expect(grant.statusCode).toBe(201);
    const cookie = await signInPatient(t, { id: patient.id, ncNumber: patient.idNumber, dateOfBirth: patient.dateOfBirth });
    const history = await t.app.inject({ method: 'GET', url: '/api/patient-portal/access-log', headers: { cookie } });
    expect(history.statusCode, history.body).toBe(200);
    const consent = history.json().items.find((i: { kind: string }) => i.kind === 'CONSENT');
    expect(consent).toMatchObject({
      name: 'Petrus Nande',
      role: { name: 'doctor' },
      facility: 'Oshakati State Hospital',
      staffId: staffReference(impostor.id),
    });
  });

  it('refuses a decision to non-administrators (403) and on one’s own request (403), changing nothing', async () => {
    const [request] = (await pending()).json();
    const byImpostor = await t.app.inject({
      method: 'POST',
      url: `/api/admin/name-changes/${request.id}/approve`,
      headers: { cookie: impostorCookie },
    });
    expect(byImpostor.statusCode).toBe(403);
    // An administrator's own request.
    await profile(
      admin.cookie,
      admin.user.id,
      { firstName: 'Chief', lastName: 'Admin' },
      (await queryOne<{ email: string }>(t.db, sql`SELECT email FROM users WHERE id = ${admin.user.id}`))!.email,
    );
    const own = (await pending()).json().find((r: { userId: string }) => r.userId === admin.user.id);
    const ownDecision = await t.app.inject({
      method: 'POST',
      url: `/api/admin/name-changes/${own.id}/approve`,
      headers: { cookie: admin.cookie },
    });
    expect(ownDecision.statusCode).toBe(403);
    expect(ownDecision.json().code).toBe('OWN_ACCOUNT_DECISION');
    expect(await nameOf(impostor.id)).toEqual({ first_name: 'Petrus', last_name: 'Nande' });
    for (const bad of ['0', 'abc', '99999999999']) {
      expect(
        (await t.app.inject({ method: 'POST', url: `/api/admin/name-changes/${bad}/approve`, headers: { cookie: admin.cookie } }))
          .statusCode,
      ).toBe(400);
    }
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/admin/name-changes/999999/approve', headers: { cookie: admin.cookie } })).statusCode,
    ).toBe(404);
  });

  it('an approval changes the name, audited with the old one; earlier history rows keep the name they were written under', async () => {
    const request = (await pending()).json().find((r: { userId: string }) => r.userId === impostor.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/name-changes/${request.id}/approve`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(await nameOf(impostor.id)).toEqual({ first_name: 'Martha', last_name: 'Shikongo' });
    const audit = await queryOne(
      t.db,
      sql`SELECT old_values, new_values->>'nameChange' AS decision FROM audit_logs WHERE resource_id = ${impostor.id} AND action = 'UPDATE' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ old_values: { firstName: 'Petrus', lastName: 'Nande' }, decision: 'approved' });
    const rows = await queryOne<{ n: number }>(
      t.db,
      sql`SELECT count(*)::int AS n FROM audit_logs WHERE user_id = ${impostor.id} AND user_name = 'Petrus Nande' AND action = 'VIEW'`,
    );
    expect(rows!.n).toBeGreaterThan(0);
    expect((await pending()).json().some((r: { userId: string }) => r.userId === impostor.id)).toBe(false);
  });

  it('a rejection leaves the name as it was', async () => {
    const u = await createStaffUser(t.db, { roleId: 4, firstName: 'Selma', lastName: 'Iita' });
    const cookie = await signIn(t.app, u.email, u.password);
    await profile(cookie, u.id, { firstName: 'Selma', lastName: 'Nghipondoka' }, u.email);
    const request = (await pending()).json().find((r: { userId: string }) => r.userId === u.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/admin/name-changes/${request.id}/reject`,
      headers: { cookie: admin.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(await nameOf(u.id)).toEqual({ first_name: 'Selma', last_name: 'Iita' });
    const again = await t.app.inject({
      method: 'POST',
      url: `/api/admin/name-changes/${request.id}/approve`,
      headers: { cookie: admin.cookie },
    });
    expect(again.statusCode).toBe(404);
  });
});
