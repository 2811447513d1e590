import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { AUDIT_LOG_LIMIT_MAX, type AuditLogQueryInput } from '../../../contracts/audit';
import type { StaffActor } from '../../context/actor';
import { writeAudit, type AuditEntry } from '../../audit/audit-writer';
import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { auditEntry, query, testMeta } from '../../test/audit-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { listAuditLogs, parseAuditLogFilters, readAuditLogs } from './audit.service';

let database: TestDatabase;
let db: Db;

const A = { userId: 'user-a', userName: 'Anna Amukoto', facility: 'Katutura State Hospital' };
const B = { userId: 'user-b', userName: 'Ben Shikongo', facility: null };
const C = { userId: 'user-c', userName: 'Carla Nel' };

/** Fixture rows 1..8; timestamps moved into place after writing (this file does not verify the chain). */
const fixture: [string, Partial<AuditEntry>][] = [
  ['2025-01-10T08:00:00Z', { actor: A, action: 'VIEW', resourceType: 'PATIENT', resourceId: 1, patientId: 1 }],
  ['2025-01-10T23:59:59.999Z', { actor: A, action: 'SEARCH', resourceType: 'PATIENT', resourceId: null, patientId: null }],
  ['2025-01-11T00:00:00Z', { actor: B, action: 'CREATE', resourceType: 'DIAGNOSIS', resourceId: 5, patientId: 1 }],
  ['2025-01-12T12:00:00Z', { actor: B, action: 'UPDATE', resourceType: 'DIAGNOSIS', resourceId: 5, patientId: 2 }],
  ['2025-01-13T09:00:00Z', { actor: C, action: 'DELETE', resourceType: 'ALLERGY', resourceId: 8, patientId: 2 }],
  ['2025-01-14T09:00:00Z', { actor: A, action: 'VIEW', resourceType: 'PATIENT', resourceId: 2, patientId: 2 }],
  [
    '2025-01-15T09:00:00Z',
    { actor: { userId: 'patient:2', userName: 'Patient 2' }, action: 'VIEW', resourceType: 'PATIENT', resourceId: 2, patientId: 2 },
  ],
  [
    '2025-01-15T10:00:00Z',
    {
      actor: B,
      action: 'SEARCH',
      resourceType: 'PATIENT',
      resourceId: null,
      patientId: null,
      meta: { ip: '10.1.1.1', userAgent: null, sessionHash: null },
    },
  ],
];

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.handle.db;
  // The fixture's months are long past: their partitions of audit_logs (decision 057) are made here.
  for (const month of ['2025-01-01']) await db.execute(sql`SELECT nhr_audit_create_partition(${month}::date)`);
  for (const [timestamp, entry] of fixture) {
    await writeAudit(db, auditEntry(entry));
    await db.execute(sql`UPDATE audit_logs SET "timestamp" = ${timestamp}::timestamptz WHERE id = (SELECT max(id) FROM audit_logs)`);
  }
});
afterAll(async () => {
  await database?.dispose();
});

// Raw query values, as a request would send them (invalid ones included).
const ids = async (filters: Record<string, unknown>): Promise<number[]> =>
  (await listAuditLogs(db, filters as AuditLogQueryInput)).map((e) => e.id);

describe('listAuditLogs', () => {
  it('returns every row newest first, with the SPEC fields and null for missing values', async () => {
    const entries = await listAuditLogs(db, {});
    expect(entries.map((e) => e.id)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(entries[0]).toEqual({
      id: 8,
      userId: 'user-b',
      userName: 'Ben Shikongo',
      action: 'SEARCH',
      resourceType: 'PATIENT',
      resourceId: null,
      patientId: null,
      oldValues: null,
      newValues: null,
      ipAddress: '10.1.1.1',
      userAgent: null,
      timestamp: '2025-01-15T10:00:00.000Z',
      sessionId: null,
      facility: null,
      complianceFlags: null,
    });
    expect(entries[7]).toMatchObject({
      resourceId: '1',
      patientId: 1,
      sessionId: testMeta.sessionHash,
      facility: 'Katutura State Hospital',
    });
  });

  it("treats 'all' and empty values as no filter", async () => {
    const all = { userId: 'all', patientId: 'all', resourceType: 'all', action: 'all', dateFrom: '', dateTo: 'all' };
    expect(await ids(all)).toEqual([8, 7, 6, 5, 4, 3, 2, 1]);
    expect(await ids({ userId: '', patientId: '', resourceType: '', action: '' })).toHaveLength(8);
  });

  it.each([
    ['userId', { userId: 'user-a' }, [6, 2, 1]],
    ['patientId', { patientId: '2' }, [7, 6, 5, 4]],
    ['resourceType', { resourceType: 'DIAGNOSIS' }, [4, 3]],
    ['action', { action: 'SEARCH' }, [8, 2]],
    ['dateFrom', { dateFrom: '2025-01-11' }, [8, 7, 6, 5, 4, 3]],
    ['dateTo (inclusive, to the end of that UTC day)', { dateTo: '2025-01-10' }, [2, 1]],
    ['one day', { dateFrom: '2025-01-15', dateTo: '2025-01-15' }, [8, 7]],
    [
      'everything at once',
      { userId: 'user-b', patientId: 2, resourceType: 'DIAGNOSIS', action: 'UPDATE', dateFrom: '2025-01-12', dateTo: '2025-01-12' },
      [4],
    ],
    ['a filter nothing matches', { userId: 'nobody' }, []],
    ['limit', { limit: '3' }, [8, 7, 6]],
  ])('filters by %s', async (_name, filters, expected) => {
    expect(await ids(filters)).toEqual(expected);
  });

  it('defaults the limit to 100 and caps it at 1,000', () => {
    expect(parseAuditLogFilters({}).limit).toBe(100);
    expect(parseAuditLogFilters({ limit: '5000' }).limit).toBe(AUDIT_LOG_LIMIT_MAX);
  });

  it.each([
    ['an unknown action', { action: 'READ' }, 'action'],
    ['an unknown resource type', { resourceType: 'SECRET' }, 'resourceType'],
    ['a lower-case action', { action: 'view' }, 'action'],
    ['a patient id that is not a number', { patientId: '1 OR 1=1' }, 'patientId'],
    ['a zero limit', { limit: '0' }, 'limit'],
    ['a fractional limit', { limit: '1.5' }, 'limit'],
    ['an impossible date', { dateFrom: '2025-02-30' }, 'dateFrom'],
    ['a date in another format', { dateTo: '15/01/2025' }, 'dateTo'],
    ['dates in the wrong order', { dateFrom: '2025-01-15', dateTo: '2025-01-10' }, 'dateTo'],
  ])('refuses %s with a 400 naming the field', async (_name, filters, field) => {
    const error = await listAuditLogs(db, filters as AuditLogQueryInput).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect((error as AppError).issues!.map((i) => i.path)).toContain(field);
  });
});

describe('readAuditLogs', () => {
  it('records the read as VIEW AUDIT_LOG, with the filters and the number of rows returned', async () => {
    const reader = {
      kind: 'staff',
      userId: 'auditor-1',
      firstName: 'Audrey',
      lastName: 'Auditor',
      email: 'a@x.na',
      roleId: 6,
      roleName: 'auditor',
      roleDisplayName: 'Auditor',
      facility: 'MR24',
      department: null,
      permissions: new Set(),
    } satisfies StaffActor;
    const meta = { ip: '10.2.2.2', userAgent: 'browser', sessionHash: 'c'.repeat(64) };
    const { entries } = await readAuditLogs({ db, actor: reader, meta, now: new Date() }, { patientId: '2', action: 'all' });
    expect(entries.map((e) => e.id)).toEqual([7, 6, 5, 4]);
    const [row] = await query(db, sql`SELECT * FROM audit_logs ORDER BY id DESC LIMIT 1`);
    expect(Number(row!.id)).toBe(9); // bigint: a string from node-postgres
    expect(row).toMatchObject({
      user_id: 'auditor-1',
      user_name: 'Audrey Auditor',
      action: 'VIEW',
      resource_type: 'AUDIT_LOG',
      patient_id: 2,
      ip_address: '10.2.2.2',
      session_id: 'c'.repeat(64),
      facility: 'MR24',
      new_values: { filters: { patientId: 2, limit: 100 }, returned: 4 },
    });
  });

  it('records nothing for a refused read', async () => {
    const reader = { kind: 'patient', patientId: 3 } as const;
    await expect(readAuditLogs({ db, actor: reader, meta: testMeta, now: new Date() }, { action: 'READ' } as never)).rejects.toMatchObject({
      status: 400,
    });
    expect(await ids({})).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });
});
