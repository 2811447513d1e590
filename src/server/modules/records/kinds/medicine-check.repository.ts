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

type AtcTable = KindTable & { code: PgColumn; codeSystem: PgColumn };

/** Which of the scope patient's items of `table` still count: ATC-coded, not entered in error, `same`, not the one edited. */
const counting = (scope: PatientScope, table: AtcTable, same: SQL | undefined, editing: number | null): SQL | undefined =>
  and(
    eq(table.patientId, scope.patientId),
    eq(table.codeSystem, ATC_SYSTEM),
    isNull(table.enteredInErrorAt),
    same,
    editing === null ? undefined : ne(table.id, editing),
  );

const entryOf = (r: { code: unknown; label: unknown; sealed: unknown }): ActiveCodedEntry => ({
  code: String(r.code),
  label: String(r.label),
  sealed: Boolean(r.sealed),
});

export async function activeAtcEntries(
  scope: PatientScope,
  table: AtcTable,
  label: PgColumn,
  same: SQL | undefined,
  /** The item being edited, which is not compared with itself. */
  editing: number | null,
): Promise<ActiveCodedEntry[]> {
  const rows = await scope.tx
    .select({ code: table.code, label, sealed: table.sealed })
    .from(table)
    .where(counting(scope, table, same, editing));
  return rows.map(entryOf);
}

/**
 * For a medicine being added or edited, in one round trip: the patient's ATC-coded allergies, and the active ATC-coded
 * medicines other than the one edited (which the duplicate warning and the interaction checks compare with).
 */
export async function allergiesAndActiveMedicines(
  scope: PatientScope,
  allergies: AtcTable & { allergen: PgColumn },
  medicines: AtcTable & { name: PgColumn; status: PgColumn },
  editing: number | null,
): Promise<{ allergies: ActiveCodedEntry[]; medicines: ActiveCodedEntry[] }> {
  const a = scope.tx
    .select({ medicine: sql<boolean>`false`, code: allergies.code, label: allergies.allergen, sealed: allergies.sealed })
    .from(allergies)
    .where(counting(scope, allergies, undefined, null));
  const m = scope.tx
    .select({ medicine: sql<boolean>`true`, code: medicines.code, label: medicines.name, sealed: medicines.sealed })
    .from(medicines)
    .where(counting(scope, medicines, eq(medicines.status, 'Active'), editing));
  const rows = await a.unionAll(m);
  return { allergies: rows.filter((r) => !r.medicine).map(entryOf), medicines: rows.filter((r) => r.medicine).map(entryOf) };
}
