// The exact searches with their SEARCH row in one statement (search-audited.repository.ts, issue 11): the row is the
// one the two-statement path wrote (criteria, ids, count, role, the single patient), its hash verifies, a search
// that finds nothing is audited too, and a failed audit append leaves no result behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { verifyAuditChain } from '../../audit/audit-verify';
import { createPatient, randomNcNumber } from '../../test/patient-fixtures';
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

const search = (body: object) => t.app.inject({ method: 'POST', url: '/api/patients/search', headers: { cookie }, payload: body });
interface Row {
  patient_id: number | null;
  new_values: { criteria: unknown; patientIds: number[]; resultCount: number; role: unknown };
  user_id: string;
  action: string;
}
const lastSearchRow = async (): Promise<Row> =>
  (
    await queryRows<Row>(
      t.db,
      sql`SELECT patient_id, new_values, user_id, action FROM audit_logs WHERE action = 'SEARCH' ORDER BY id DESC LIMIT 1`,
    )
  )[0]!;

describe('an exact search and its audit row in one statement', () => {
  it('records the NC-number search with the patient, the ids, the count and the role, and the chain verifies', async () => {
    const p = await createPatient(t.db, { lastName: "O'Neill-Ëxample", dateOfBirth: '1990-02-03' });
    const res = await search({ method: 'id-number', idNumber: p.idNumber });
    expect(res.json()).toEqual([expect.objectContaining({ id: p.id, idNumber: p.idNumber })]);
    const row = await lastSearchRow();
    expect(row.patient_id).toBe(p.id);
    expect(row.new_values).toEqual({
      criteria: { method: 'id-number', idNumber: p.idNumber },
      patientIds: [p.id],
      resultCount: 1,
      role: expect.anything(),
    });
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });

  it('keeps the order of several results and names no single patient', async () => {
    const born = '1975-06-07';
    const made = [
      await createPatient(t.db, { lastName: 'Shikongo', firstName: 'Zacharia', dateOfBirth: born }),
      await createPatient(t.db, { lastName: 'Shikongo', firstName: 'Aina', dateOfBirth: born }),
    ];
    const res = await search({ method: 'name-dob', lastName: 'shikongo', dateOfBirth: born });
    const ids = (res.json() as { id: number; firstName: string }[]).map((r) => r.firstName);
    expect(ids).toEqual(['Aina', 'Zacharia']);
    const row = await lastSearchRow();
    expect(row.patient_id).toBeNull();
    expect(row.new_values.patientIds).toEqual([made[1]!.id, made[0]!.id]);
    expect(row.new_values.resultCount).toBe(2);
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });

  it('audits a search that finds nothing, with quotes and non-Latin text in the criteria', async () => {
    const before = (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))[0]!.n;
    const res = await search({ method: 'name-dob', lastName: `Nobody "quoted" \\ ǃXoo 名`, dateOfBirth: '1901-01-01' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([]);
    const row = await lastSearchRow();
    expect(row.new_values).toMatchObject({ patientIds: [], resultCount: 0, criteria: { lastName: `Nobody "quoted" \\ ǃXoo 名` } });
    expect(row.patient_id).toBeNull();
    expect((await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))[0]!.n).toBe(before + 1);
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });

  it('answers no patient when its audit row cannot be written', async () => {
    const p = await createPatient(t.db, { idNumber: randomNcNumber() });
    // A chain head that is missing makes the append raise: the search must fail as a whole.
    await t.db.execute(sql`ALTER TABLE audit_chain_head DISABLE TRIGGER USER`);
    const heads = await queryRows<{ chain: number; last_seq: number; last_id: number | null; prev_hash: string; last_hash: string }>(
      t.db,
      sql`SELECT * FROM audit_chain_head`,
    );
    await t.db.execute(sql`DELETE FROM audit_chain_head`);
    try {
      const res = await search({ method: 'id-number', idNumber: p.idNumber });
      expect(res.statusCode).toBe(500);
      expect(res.body).not.toContain(p.idNumber);
    } finally {
      for (const h of heads) {
        await t.db.execute(
          sql`INSERT INTO audit_chain_head (chain, last_seq, last_id, prev_hash, last_hash) VALUES (${h.chain}, ${h.last_seq}, ${h.last_id}, ${h.prev_hash}, ${h.last_hash})`,
        );
      }
      await t.db.execute(sql`ALTER TABLE audit_chain_head ENABLE TRIGGER USER`);
    }
    expect(await verifyAuditChain(t.db)).toMatchObject({ ok: true });
  });
});
