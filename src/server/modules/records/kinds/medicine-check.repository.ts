// The entries the medicine checks compare with (decision 043): a patient's ATC-coded items of one table that still
// count (not entered in error, and `same`, e.g. status Active), with the text the clinician wrote.
import { and, eq, getTableName, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { ATC_SYSTEM } from '../../../../contracts/code-systems';
import { hotStatement, slotValues, type SlotValues } from '../../../db/client';
import type { PatientScope } from '../../access/patient-scope';
import type { KindTable } from './server-kind';

export interface ActiveCodedEntry {
  /** The row's id in its table. */
  id: number;
  code: string;
  label: string;
  /** A sealed row still counts for safety; its text is withheld from the warning. */
  sealed: boolean;
}

type AtcTable = KindTable & { code: PgColumn; codeSystem: PgColumn };

/** Which of a patient's items of `table` still count: ATC-coded, not entered in error, and `also` (e.g. status Active). */
const counting = (table: AtcTable, patientId: number | SQL, ...also: (SQL | undefined)[]): SQL | undefined =>
  and(eq(table.patientId, patientId), eq(table.codeSystem, ATC_SYSTEM), isNull(table.enteredInErrorAt), ...also);

const entryOf = (r: { id: unknown; code: unknown; label: unknown; sealed: unknown }): ActiveCodedEntry => ({
  id: Number(r.id),
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
    .select({ id: table.id, code: table.code, label, sealed: table.sealed })
    .from(table)
    .where(counting(table, scope.patientId, same, editing === null ? undefined : ne(table.id, editing)));
  return rows.map(entryOf);
}

interface CheckSlots {
  patientId: number;
  /** The medicine being edited (left out), or null for an add. */
  editing: number | null;
}

type CheckStatement = (
  db: PatientScope['tx'],
  values: SlotValues<CheckSlots>,
) => Promise<{ medicine: boolean; id: unknown; code: unknown; label: unknown; sealed: unknown }[]>;
/** The statement per pair of tables (there is one pair: allergies and medications), built once (db/client hotStatement). */
const STATEMENTS = new Map<string, CheckStatement>();

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
  const name = `nhr_${getTableName(allergies)}_and_active_${getTableName(medicines)}`;
  let statement = STATEMENTS.get(name);
  if (!statement) {
    statement = hotStatement<CheckSlots, { medicine: boolean; id: unknown; code: unknown; label: unknown; sealed: unknown }>(
      name,
      (
        slot,
      ) => sql`SELECT false AS medicine, ${allergies.id} AS id, ${allergies.code} AS code, ${allergies.allergen} AS label, ${allergies.sealed} AS sealed
          FROM ${allergies} WHERE ${counting(allergies, slot.patientId)}
        UNION ALL
        SELECT true, ${medicines.id}, ${medicines.code}, ${medicines.name}, ${medicines.sealed}
          FROM ${medicines} WHERE ${counting(
            medicines,
            slot.patientId,
            eq(medicines.status, 'Active'),
            sql`(${slot.editing}::int IS NULL OR ${medicines.id} <> ${slot.editing}::int)`,
          )}`,
    );
    STATEMENTS.set(name, statement);
  }
  const rows = await statement(scope.tx, slotValues({ patientId: scope.patientId, editing }));
  return { allergies: rows.filter((r) => !r.medicine).map(entryOf), medicines: rows.filter((r) => r.medicine).map(entryOf) };
}
