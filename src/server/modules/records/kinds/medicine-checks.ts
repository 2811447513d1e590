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
