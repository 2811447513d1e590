// A patient joined into another record (decision 048): the record it now lives on, and the one answer every route
// that would write to the inactive record gives (409 PATIENT_JOINED with the survivor's id).
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { rows } from '../patients/search.repository';

/** The record a joined-away patient was joined into (following later joins to the live record), or null. */
export async function survivorOf(db: DbOrTx, patientId: number): Promise<number | null> {
  const [found] = await rows<{ id: number | null }>(
    db,
    sql`WITH RECURSIVE chain(id, depth) AS (
          SELECT replaced_by, 1 FROM patients WHERE id = ${patientId} AND replaced_by IS NOT NULL
          UNION ALL
          SELECT p.replaced_by, c.depth + 1 FROM chain c JOIN patients p ON p.id = c.id WHERE p.replaced_by IS NOT NULL AND c.depth < 50)
        SELECT id FROM chain ORDER BY depth DESC LIMIT 1`,
  );
  return found?.id ?? null;
}

export function patientJoined(survivorId: number | null): AppError {
  return new AppError('PATIENT_JOINED', 'This record was joined into another record', { details: { survivorId } });
}

/** The 409 for a write that found `patientId` joined into another record. */
export async function patientJoinedError(db: DbOrTx, patientId: number): Promise<AppError> {
  return patientJoined(await survivorOf(db, patientId));
}
