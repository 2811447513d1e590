// The entries the medicine checks compare with (decision 043): a patient's ATC-coded items of one table that still
// count (not entered in error, and `same`, e.g. status Active), with the text the clinician wrote.
import { and, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
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

/**
 * For a medicine being added or edited, in one round trip: the patient's ATC-coded allergies, and the active ATC-coded
 * medicines other than the one edited (which the duplicate warning and the interaction checks compare with).
 */
export async function allergiesAndActiveMedicines(
  scope: PatientScope,
  allergies: KindTable & { code: PgColumn; codeSystem: PgColumn; allergen: PgColumn },
  medicines: KindTable & { code: PgColumn; codeSystem: PgColumn; name: PgColumn; status: PgColumn },
  editing: number | null,
): Promise<{ allergies: ActiveCodedEntry[]; medicines: ActiveCodedEntry[] }> {
  const a = scope.tx
    .select({ medicine: sql<boolean>`false`, code: allergies.code, label: allergies.allergen, sealed: allergies.sealed })
    .from(allergies)
    .where(and(eq(allergies.patientId, scope.patientId), eq(allergies.codeSystem, ATC_SYSTEM), isNull(allergies.enteredInErrorAt)));
  const m = scope.tx
    .select({ medicine: sql<boolean>`true`, code: medicines.code, label: medicines.name, sealed: medicines.sealed })
    .from(medicines)
    .where(
      and(
        eq(medicines.patientId, scope.patientId),
        eq(medicines.codeSystem, ATC_SYSTEM),
        isNull(medicines.enteredInErrorAt),
        eq(medicines.status, 'Active'),
        editing === null ? undefined : ne(medicines.id, editing),
      ),
    );
  const rows = await a.unionAll(m);
  const entry = (r: (typeof rows)[number]): ActiveCodedEntry => ({
    code: String(r.code),
    label: String(r.label),
    sealed: Boolean(r.sealed),
  });
  return { allergies: rows.filter((r) => !r.medicine).map(entry), medicines: rows.filter((r) => r.medicine).map(entry) };
}
