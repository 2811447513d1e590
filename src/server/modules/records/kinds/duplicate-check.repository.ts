// The warning most kinds share: the same coded entry is already on the record (a retry, or a second clinician
// entering what the first did). Each kind says what "the same" means for it (the same date, still active).
import { and, count, eq, isNull, ne, type SQL } from 'drizzle-orm';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import type { PatientScope } from '../../access/patient-scope';
import type { KindTable } from './server-kind';

/**
 * DUPLICATE_ENTRY when the patient already has an item of `table` with this code and matching `same`; none for an
 * uncoded input (free text is not compared: "amoxil" and "amoxicillin" would be missed, and a wrong warning teaches
 * people to click through).
 */
export async function duplicateEntryWarnings(
  scope: PatientScope,
  table: KindTable & { code: KindTable['id'] },
  input: { code: string | null },
  label: string,
  same: SQL | undefined,
  /** The item being edited, which is not its own duplicate. */
  editing: number | null,
): Promise<RecordWarning[]> {
  if (input.code === null) return [];
  const [found] = await scope.tx
    .select({ n: count() })
    .from(table)
    .where(
      and(
        eq(table.patientId, scope.patientId),
        eq(table.code, input.code),
        isNull(table.enteredInErrorAt),
        same,
        editing === null ? undefined : ne(table.id, editing),
      ),
    );
  return (found?.n ?? 0) > 0 ? [duplicateEntryWarning(label)] : [];
}

/** The warning: `label` is already on this record. */
export const duplicateEntryWarning = (label: string): RecordWarning => ({
  code: 'DUPLICATE_ENTRY',
  message: `${label} is already on this record`,
  params: { name: label },
});
