// A grant and its audit row in one statement (grant-audited.repository.ts, issue 11): the row names the grant that
// was stored, the chain verifies, and an unknown patient writes neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { verifyAuditChain } from '../../audit/audit-verify';
import { createPatient } from '../../test/patient-fixtures';
import { queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let cookie: string;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signInAs(t, ROLE_IDS.doctor)).cookie;
});
afterAll(async () => {
  await t?.close();
});

const grant = (patientId: number, body: object) =>
  t.app.inject({ method: 'POST', url: `/api/patients/${patientId}/access`, headers: { cookie }, payload: body });
const count = async (table: string): Promise<number> =>
  (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n;

describe('a grant and its audit row in one statement', () => {
  it('stores the grant and a VIEW row naming it, with the reason, and the chain verifies', async () => {
    const p = await createPatient(t.db);
    const res = await grant(p.id, { consent: false, reason: 'Unconscious on arrival' });
    expect(res.statusCode).toBe(201);
    const body = res.json() as { id: number; expiresAt: string };
    const [stored] = await queryRows<{ id: number; ms: number }>(
      t.db,
      sql`SELECT id, extract(epoch FROM expires_at)::float8 * 1000 AS ms FROM access_grants WHERE patient_id = ${p.id}`,
    );
    expect(stored!.id).toBe(body.id);
    expect(new Date(body.expiresAt).getTime()).toBe(Math.round(Number(stored!.ms)));
    const [row] = await queryRows<{ patient_id: number; new_values: Record<string, unknown>; compliance_flags: unknown }>(
      t.db,
      sql`SELECT patient_id, new_values, compliance_flags FROM audit_logs WHERE action = 'VIEW' AND patient_id = ${p.id} ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toMatchObject({
      patient_id: p.id,
      new_values: { access: 'GRANTED', grantId: body.id, expiresAt: body.expiresAt },
      compliance_flags: { type: 'BREAK_GLASS', reason: 'Unconscious on arrival' },
    });
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });

  it('writes neither a grant nor an audit row for an unknown patient', async () => {
    const [grants, audits] = [await count('access_grants'), await count('audit_logs')];
    const res = await grant(2_000_000_000, { consent: true });
    expect(res.statusCode).toBe(404);
    expect([await count('access_grants'), await count('audit_logs')]).toEqual([grants, audits]);
  });
});
