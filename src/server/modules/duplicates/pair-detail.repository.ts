// Both records of a probable duplicate pair, whole, for the reviewer's side-by-side view (issue 24 item 3): the
// demographics, whether each has portal sign-in, and every clinical list, read by the records module's own list
// reader (listJson) and presenter (presentLists), as the record dashboard reads them.
import { inArray, sql } from 'drizzle-orm';
import { RECORD_KINDS, type RecordLists } from '../../../contracts/kinds';
import type { PairRecord } from '../../../contracts/duplicates';
import type { DbOrTx } from '../../db/client';
import { patientDetailsColumns } from '../../db/patient-columns';
import { patientPortalCredentials, patients } from '../../db/schema';
import { listJson, presentLists } from '../records/records.repository';

/** The two patients' records in the order asked; a patient that does not exist is left out. */
export async function readPairRecords(db: DbOrTx, ids: readonly [number, number]): Promise<PairRecord[]> {
  const lists = Object.fromEntries(RECORD_KINDS.map((kind) => [kind, sql<unknown[]>`${listJson(kind, sql`${patients.id}`)}`]));
  const found = await db
    .select({
      patient: patientDetailsColumns,
      createdAt: patients.createdAt,
      portal: sql<boolean>`EXISTS (SELECT 1 FROM ${patientPortalCredentials}
        WHERE ${patientPortalCredentials.patientId} = ${patients.id} AND ${patientPortalCredentials.pinHash} IS NOT NULL)`,
      ...lists,
    })
    .from(patients)
    .where(inArray(patients.id, [...ids]));
  return ids.flatMap((id) => {
    const row = found.find((r) => r.patient.id === id);
    if (!row) return [];
    const { patient, createdAt, portal, ...stored } = row;
    const presented = presentLists(stored as unknown as RecordLists);
    const clinicalRows = RECORD_KINDS.reduce((n, kind) => n + presented[kind].length, 0);
    return [{ patient, ...presented, portal: Boolean(portal), createdAt: new Date(createdAt).toISOString(), clinicalRows }];
  });
}
