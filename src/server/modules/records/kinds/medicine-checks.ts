// The medicine safety checks of the medications and allergies kinds (issue 25 item 4; decision 043): a medicine
// against the patient's allergies and active medicines, an allergy against the active medicines. Only ATC-coded
// entries are compared. While the knowledge is unavailable every check answers MEDICINE_CHECKS_UNAVAILABLE instead
// of passing.
import { eq } from 'drizzle-orm';
import { ATC_SYSTEM } from '../../../../contracts/code-systems';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import {
  allergyFinding,
  interactionFindings,
  knowledgeOrWarning,
  warningsOf,
  type CheckedEntry,
  type MedicineFinding,
} from '../../medicine-checks/medicine-checks.service';
import type { PatientScope } from '../../access/patient-scope';
import { allergiesTable } from './allergies-table';
import { medicationsTable } from './medications-table';
import { activeAtcEntries, allergiesAndActiveMedicines, type ActiveCodedEntry } from './medicine-check.repository';
import { duplicateEntryWarning } from './duplicate-check.repository';

interface CodedInput {
  code: string | null;
  codeSystem: string | null;
}

const WITHHELD = 'an entry withheld from you';
const labelOf = (e: ActiveCodedEntry): string => (e.sealed ? WITHHELD : e.label);
const atcOf = (input: CodedInput, label: string): CheckedEntry | null =>
  input.code !== null && input.codeSystem === ATC_SYSTEM ? { code: input.code, label } : null;

const activeMedicines = (scope: PatientScope, editing: number | null): Promise<ActiveCodedEntry[]> =>
  activeAtcEntries(scope, medicationsTable, medicationsTable.name, eq(medicationsTable.status, 'Active'), editing);

/** Every finding (all tiers) for an active medicine against the patient's allergies and other active medicines. */
function medicineFindings(
  knowledge: Parameters<typeof allergyFinding>[0],
  medicine: CheckedEntry,
  found: { allergies: ActiveCodedEntry[]; medicines: ActiveCodedEntry[] },
): MedicineFinding[] {
  const findings: MedicineFinding[] = [];
  for (const allergy of found.allergies) {
    const f = allergyFinding(knowledge, allergy, medicine, medicine.label, labelOf(allergy));
    if (f) findings.push(f);
  }
  for (const other of found.medicines)
    findings.push(...interactionFindings(knowledge, medicine, { code: other.code, label: labelOf(other) }));
  return findings;
}

/**
 * The warnings of a medicine being added or edited, from one read of the record: the same medicine still active
 * (DUPLICATE_ENTRY), then the medicine checks. A stopped or uncoded medicine meets nothing.
 */
export async function medicationWarnings(
  scope: PatientScope,
  input: CodedInput & { name: string; status: string },
  editing: number | null,
): Promise<RecordWarning[]> {
  const medicine = atcOf(input, input.name);
  if (!medicine || input.status !== 'Active') return [];
  const found = await allergiesAndActiveMedicines(scope, allergiesTable, medicationsTable, editing);
  const duplicate = found.medicines.some((m) => m.code === medicine.code) ? [duplicateEntryWarning(input.name)] : [];
  const known = knowledgeOrWarning();
  if ('warning' in known) return [...duplicate, known.warning];
  return [...duplicate, ...warningsOf(medicineFindings(known.knowledge, medicine, found))];
}

/** The warnings of an allergy being added or edited: the active medicines it names or cross-reacts with. */
export async function allergyCheckWarnings(
  scope: PatientScope,
  input: CodedInput & { allergen: string },
  _editing: number | null,
): Promise<RecordWarning[]> {
  const allergy = atcOf(input, input.allergen);
  if (!allergy) return [];
  const known = knowledgeOrWarning();
  if ('warning' in known) return [known.warning];
  const findings = (await activeMedicines(scope, null))
    .map((m) => allergyFinding(known.knowledge, allergy, { code: m.code, label: labelOf(m) }, input.allergen, labelOf(m)))
    .filter((f): f is MedicineFinding => f !== null);
  return warningsOf(findings);
}

/** An active medicine of the record (or a draft order) and every finding it meets, all tiers. */
export interface MedicineFindings {
  /** The medication's id; null for a draft that is not stored. */
  id: number | null;
  code: string;
  label: string;
  findings: MedicineFinding[];
}

export type FindingsOrUnavailable =
  { available: true; version: string; medicines: MedicineFindings[] } | { available: false; problem: string };

/**
 * The medicine checks over the whole record (decision 045): each active ATC-coded medicine against the allergies and
 * the other active medicines; with `eachPairOnce` an interaction is named on the first medicine of the pair only.
 * Every tier, minor included: the medicine's details list them, and CDS Hooks patient-view turns them into cards.
 */
export async function recordMedicineFindings(scope: PatientScope, eachPairOnce: boolean): Promise<FindingsOrUnavailable> {
  const known = knowledgeOrWarning();
  if ('warning' in known) return { available: false, problem: String(known.warning.params?.problem ?? '') };
  const found = await allergiesAndActiveMedicines(scope, allergiesTable, medicationsTable, null);
  const medicines = found.medicines.map((m, i) => {
    const medicine = { code: m.code, label: labelOf(m) };
    const others = eachPairOnce ? found.medicines.slice(i + 1) : found.medicines.filter((o) => o.id !== m.id);
    return {
      id: m.id,
      ...medicine,
      findings: medicineFindings(known.knowledge, medicine, { allergies: found.allergies, medicines: others }),
    };
  });
  return { available: true, version: known.knowledge.version, medicines };
}

/**
 * The medicine checks of medicines not stored yet (CDS Hooks order-select): each selected draft against the record's
 * allergies and active medicines, the other drafts, and the selected drafts before it.
 */
export async function draftMedicineFindings(
  scope: PatientScope,
  selected: readonly CheckedEntry[],
  others: readonly CheckedEntry[],
): Promise<FindingsOrUnavailable> {
  const known = knowledgeOrWarning();
  if ('warning' in known) return { available: false, problem: String(known.warning.params?.problem ?? '') };
  const found = await allergiesAndActiveMedicines(scope, allergiesTable, medicationsTable, null);
  const asEntry = (e: CheckedEntry, i: number): ActiveCodedEntry => ({ id: -1 - i, code: e.code, label: e.label, sealed: false });
  const medicines = selected.map((d, i) => {
    const drafts = [...others, ...selected.slice(0, i)].map(asEntry);
    const against = { allergies: found.allergies, medicines: [...found.medicines, ...drafts] };
    return { id: null, code: d.code, label: d.label, findings: medicineFindings(known.knowledge, d, against) };
  });
  return { available: true, version: known.knowledge.version, medicines };
}
