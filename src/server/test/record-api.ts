// The record endpoints as a test calls them through the real app: add (with `?confirm=` and an Idempotency-Key), edit
// (If-Match: the version given, else the stored one), list, entered in error (with a reason), history and changes.
import { getTableName, sql } from 'drizzle-orm';
import type { RecordKind } from '../../contracts/kinds';
import { SERVER_KINDS } from '../modules/records/kinds';
import { createPatient, type TestPatient } from './patient-fixtures';
import { signInAs } from './staff';
import { queryOne } from './sql';
import type { TestApp } from './test-app';

export function recordApi(t: TestApp, cookie: string) {
  const confirmOf = (confirm?: string[]) => (confirm?.length ? `?confirm=${confirm.join(',')}` : '');
  return {
    add: (kind: RecordKind, patientId: number, payload: unknown, confirm?: string[], idempotencyKey?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/patients/${patientId}/${kind}${confirmOf(confirm)}`,
        headers: { cookie, ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}) },
        payload: payload as object,
      }),
    edit: async (kind: RecordKind, id: number, payload: unknown, confirm?: string[], version?: number | null) => {
      const v = version === undefined ? await storedVersion(t, kind, id) : version;
      return t.app.inject({
        method: 'PATCH',
        url: `/api/${kind}/${id}${confirmOf(confirm)}`,
        headers: { cookie, ...(v === null ? {} : { 'if-match': `"${v}"` }) },
        payload: payload as object,
      });
    },
    list: (kind: RecordKind, patientId: number) =>
      t.app.inject({ method: 'GET', url: `/api/patients/${patientId}/${kind}`, headers: { cookie } }),
    remove: (kind: RecordKind, id: number, reason?: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/${kind}/${id}`,
        headers: { cookie },
        ...(reason === undefined ? {} : { payload: { reason } }),
      }),
    history: (kind: RecordKind, id: number) => t.app.inject({ method: 'GET', url: `/api/${kind}/${id}/history`, headers: { cookie } }),
    changes: (patientId: number, since?: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/patients/${patientId}/changes${since === undefined ? '' : `?since=${encodeURIComponent(since)}`}`,
        headers: { cookie },
      }),
  };
}

/** The version a row is stored at (1 when there is no such row), for edits that name the current version. */
export async function storedVersion(t: TestApp, kind: RecordKind, id: number): Promise<number> {
  const table = sql.identifier(getTableName(SERVER_KINDS[kind].table));
  return (await queryOne<{ version: number }>(t.db, sql`SELECT version FROM ${table} WHERE id = ${id}`))?.version ?? 1;
}

/** Grants the signed-in user access to the patient's record (consent). */
export async function confirmAccess(t: TestApp, cookie: string, patientId: number): Promise<void> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/patients/${patientId}/access`,
    headers: { cookie },
    payload: { consent: true },
  });
  if (res.statusCode !== 201) throw new Error(`access not confirmed: ${res.statusCode} ${res.body}`);
}

/** How many rows the audit log holds: a refused change adds none. */
export const auditCount = async (t: TestApp): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n;

/** A doctor signed in, and a new patient whose record the doctor may open (consent confirmed). */
export async function doctorWithRecord(t: TestApp): Promise<{ cookie: string; patient: TestPatient }> {
  const { cookie } = await signInAs(t, 3);
  const patient = await createPatient(t.db);
  await confirmAccess(t, cookie, patient.id);
  return { cookie, patient };
}
