// The data context commits a unit of work only with its audit rows, and a patient's record opens only through
// the grant check (docs/decisions/009-data-context.md). The `@ts-expect-error` lines prove, at typecheck, that the
// unsafe versions do not compile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { grantRecordAccess } from '../modules/access/access.service';
import { openPatientRecord } from '../modules/access/patient-scope';
import { selectList } from '../modules/records/records.repository';
import { auditRowCount, query, testMeta } from '../test/audit-fixtures';
import { createPatient } from '../test/patient-fixtures';
import { createStaffUser } from '../test/staff';
import { testConfig } from '../test/test-app';
import { createTestDatabase, type TestDatabase } from '../test/test-database';
import type { StaffActor } from './actor';
import { inAuditedTransaction, UNAUDITED_TRANSACTION, type Audited, type DataContext, type RequestScope } from './data-context';

let database: TestDatabase;
let db: Db;
let scope: RequestScope<StaffActor>;
beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  const user = await createStaffUser(db, { roleId: 2, firstName: 'Selma', lastName: 'Nangolo' });
  const actor: StaffActor = {
    kind: 'staff',
    userId: user.id,
    firstName: 'Selma',
    lastName: 'Nangolo',
    email: user.email,
    roleId: 2,
    roleName: 'doctor',
    roleDisplayName: 'Doctor',
    facility: 'Katutura State Hospital',
    department: 'Emergency',
    permissions: new Set(),
  };
  scope = { db, actor, meta: { ...testMeta }, now: new Date() };
});
afterAll(async () => {
  await database?.dispose();
});

const patientCount = async (lastName: string): Promise<number> =>
  (await query<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM patients WHERE last_name = ${lastName}`))[0]!.n;

describe('inAuditedTransaction', () => {
  it('commits the work together with its audit rows, naming the actor and request of the context', async () => {
    const before = await auditRowCount(db);
    const patient = await createPatient(db);
    const value = await inAuditedTransaction(scope, async (ctx) =>
      ctx.audited('done', { action: 'VIEW', resourceType: 'PATIENT', resourceId: patient.id, patientId: patient.id }),
    );
    expect(value).toBe('done');
    expect(await auditRowCount(db)).toBe(before + 1);
    const [row] = await query<Record<string, unknown>>(
      db,
      sql`SELECT user_id, user_name, facility, ip_address, patient_id FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({
      user_id: scope.actor.userId,
      user_name: 'Selma Nangolo',
      facility: 'Katutura State Hospital',
      ip_address: testMeta.ip,
      patient_id: patient.id,
    });
  });

  it('refuses to commit a unit of work whose result was not audited, and keeps nothing of it', async () => {
    const before = await auditRowCount(db);
    const work = async (ctx: DataContext<StaffActor>): Promise<Audited<string>> => {
      await createPatient(ctx.tx as Db, { lastName: 'Unaudited' });
      return { value: 'forged' } as unknown as Audited<string>; // what the types forbid, forced by a cast
    };
    await expect(inAuditedTransaction(scope, work)).rejects.toThrow(UNAUDITED_TRANSACTION);
    expect(await patientCount('Unaudited')).toBe(0);
    expect(await auditRowCount(db)).toBe(before);
  });

  it('writes no audit row when the work fails, and keeps nothing of the work', async () => {
    const before = await auditRowCount(db);
    await expect(
      inAuditedTransaction(scope, async (ctx) => {
        await createPatient(ctx.tx as Db, { lastName: 'Halfway' });
        ctx.audited(null, { action: 'CREATE', resourceType: 'PATIENT' });
        throw new Error('failed after recording');
      }),
    ).rejects.toThrow('failed after recording');
    expect(await patientCount('Halfway')).toBe(0);
    expect(await auditRowCount(db)).toBe(before);
  });
});

describe('a patient scope', () => {
  it('opens only with a live grant: 403 without one, 404 for an unknown patient, and nothing is audited', async () => {
    const patient = await createPatient(db);
    const before = await auditRowCount(db);
    const open = (patientId: number): Promise<unknown> =>
      inAuditedTransaction(scope, async (ctx) => {
        const scoped = await openPatientRecord(ctx, patientId);
        return ctx.audited(await selectList(scoped, 'diagnoses'), { action: 'VIEW', resourceType: 'DIAGNOSIS', patientId });
      });
    await expect(open(patient.id)).rejects.toMatchObject({ status: 403 });
    await expect(open(2_000_000_000)).rejects.toMatchObject({ status: 404 });
    expect(await auditRowCount(db)).toBe(before);

    const rules = { alerts: testConfig().alerts, breakGlassPerHour: testConfig().breakGlassPerHour };
    await grantRecordAccess({ ...scope, gate: { check: null, limit: null, rules } }, { patientId: patient.id, access: { consent: true } });
    await expect(open(patient.id)).resolves.toEqual([]);
    expect(await auditRowCount(db)).toBe(before + 2); // the grant and the read
  });
});

// Never called: typechecked only. Each line is what the data context exists to make impossible.
export async function unsafeVersionsDoNotCompile(ctx: DataContext<StaffActor>): Promise<void> {
  // @ts-expect-error a unit of work must return an audited result
  await inAuditedTransaction(scope, async () => 'not audited');
  // @ts-expect-error a patient's record is read through a PatientScope (the grant check), not a bare context
  await selectList(ctx, 'diagnoses');
  // @ts-expect-error an audited result needs at least one audit entry
  ctx.audited('value');
}
