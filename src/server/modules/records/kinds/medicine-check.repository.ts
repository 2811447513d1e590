// The entries the medicine checks compare with (decision 043): a patient's ATC-coded items of one table that still
// count (not entered in error, and `same`, e.g. status Active), with the text the clinician wrote.
import { and, eq, isNull, ne, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ATC_SYSTEM } from '../../../../contracts/code-systems';
import type { PatientScope } from '../../access/patient-scope';
import type { KindTable } from './server-kind';

export interface ActiveCodedEntry {
  code: string;
  label: string;
  /** A sealed row still counts for safety; its text is withheld from the warning. */
  sealed: boolean;
}

export async function activeAtcEntries(
  scope: PatientScope,
  table: KindTable & { code: PgColumn; codeSystem: PgColumn },
  label: PgColumn,
  same: SQL | undefined,
  /** The item being edited, which is not compared with itself. */
  editing: number | null,
): Promise<ActiveCodedEntry[]> {
  const rows = await scope.tx
    .select({ code: table.code, label, sealed: table.sealed })
    .from(table)
    .where(
      and(
        eq(table.patientId, scope.patientId),
        eq(table.codeSystem, ATC_SYSTEM),
        isNull(table.enteredInErrorAt),
        same,
        editing === null ? undefined : ne(table.id, editing),
      ),
    );
  return rows.map((r) => ({ code: String(r.code), label: String(r.label), sealed: Boolean(r.sealed) }));
}
