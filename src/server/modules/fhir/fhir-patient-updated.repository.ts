// When each Patient last changed, for `_lastUpdated` on Patient (issue 26 item 4; decision 051): the patients table
// keeps no change time, but every change of a patient is in the audit trail (its CREATE or UPDATE PATIENT row), and a
// join sets replaced_at. The latest of those, or when the record was created.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { intArray, rows } from '../patients/search.repository';

export async function patientsUpdatedAt(db: DbOrTx, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const found = await rows<{ id: number; at: Date | string }>(
    db,
    sql`SELECT p.id, greatest(p.created_at, p.replaced_at,
               (SELECT max(a.timestamp) FROM audit_logs a
                 WHERE a.patient_id = p.id AND a.resource_type = 'PATIENT' AND a.action IN ('CREATE', 'UPDATE'))) AS at
          FROM patients p WHERE p.id = ANY(${intArray(ids)})`,
  );
  return new Map(found.map((r) => [r.id, new Date(r.at).toISOString()]));
}
