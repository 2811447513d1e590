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
import { activeAtcEntries, type ActiveCodedEntry } from './medicine-check.repository';

interface CodedInput {
  code: string | null;
  codeSystem: string | null;
}

const WITHHELD = 'an entry withheld from you';
const labelOf = (e: ActiveCodedEntry): string => (e.sealed ? WITHHELD : e.label);
const atcOf = (input: CodedInput, label: string): CheckedEntry | null =>
  input.code !== null && input.codeSystem === ATC_SYSTEM ? { code: input.code, label } : null;

const activeAllergies = (scope: PatientScope, editing: number | null): Promise<ActiveCodedEntry[]> =>
  activeAtcEntries(scope, allergiesTable, allergiesTable.allergen, undefined, editing);
const activeMedicines = (scope: PatientScope, editing: number | null): Promise<ActiveCodedEntry[]> =>
  activeAtcEntries(scope, medicationsTable, medicationsTable.name, eq(medicationsTable.status, 'Active'), editing);

/** Every finding (all tiers) for an active medicine: its allergies and the other active medicines. */
export async function medicineFindings(
  scope: PatientScope,
  medicine: CheckedEntry,
  editing: number | null,
): Promise<MedicineFinding[] | RecordWarning> {
  const known = knowledgeOrWarning();
  if ('warning' in known) return known.warning;
  const { knowledge } = known;
  const findings: MedicineFinding[] = [];
  for (const allergy of await activeAllergies(scope, null)) {
    const f = allergyFinding(knowledge, allergy, medicine, medicine.label, labelOf(allergy));
    if (f) findings.push(f);
  }
  for (const other of await activeMedicines(scope, editing))
    findings.push(...interactionFindings(knowledge, medicine, { code: other.code, label: labelOf(other) }));
  return findings;
}

/** The warnings of a medicine being added or edited (active ones only: a stopped medicine meets nothing). */
export async function medicineCheckWarnings(
  scope: PatientScope,
  input: CodedInput & { name: string; status: string },
  editing: number | null,
): Promise<RecordWarning[]> {
  const medicine = atcOf(input, input.name);
  if (!medicine || input.status !== 'Active') return [];
  const found = await medicineFindings(scope, medicine, editing);
  return Array.isArray(found) ? warningsOf(found) : [found];
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
