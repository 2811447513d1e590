// The medicine checks themselves (decision 043): what the knowledge says about a medicine and an allergy, and about
// two medicines, as findings; and the warnings of the warnings-then-confirm protocol they become. Pure: the records
// kinds read the patient's allergies and medicines and call these.
import { MEDICINE_WARNING_CODES, type MedicineCheckTier, type MedicineWarningParams } from '../../../contracts/medicine-checks';
import type { RecordWarning } from '../../../contracts/record-warnings';
import type { KnowledgeRule, MedicineKnowledge } from './knowledge-files';
import { medicineKnowledgeState } from './medicine-knowledge';

/** A coded entry a check compares: its ATC code and what the clinician wrote. */
export interface CheckedEntry {
  code: string;
  label: string;
}

export interface MedicineFinding {
  type: 'allergy' | 'interaction';
  tier: MedicineCheckTier;
  /** The entry being stored. */
  substance: string;
  /** The allergy or medicine already on the record. */
  other: string;
  statement: string;
  rule: string;
  source: string;
  version: string;
}

const RANK: Record<MedicineCheckTier, number> = { contraindicated: 3, serious: 2, minor: 1 };
const matches = (prefixes: readonly string[], code: string): boolean => prefixes.some((p) => code.startsWith(p));
const HIERARCHY_RULE = 'atc-hierarchy';

function finding(
  k: MedicineKnowledge,
  type: MedicineFinding['type'],
  rule: KnowledgeRule,
  substance: string,
  other: string,
): MedicineFinding {
  const source = k.sources.get(rule.source)?.title ?? rule.source;
  return { type, tier: rule.tier, substance, other, statement: rule.statement, rule: rule.id, source, version: k.version };
}

/**
 * What an allergy means for a medicine: contraindicated when the allergy's code is the medicine's or a class that
 * holds it (the ATC hierarchy); else the strongest allergy-class rule (cross-reactivity); else nothing.
 */
export function allergyFinding(
  k: MedicineKnowledge,
  allergy: CheckedEntry,
  medicine: CheckedEntry,
  substance: string,
  other: string,
): MedicineFinding | null {
  if (medicine.code.startsWith(allergy.code)) {
    const rule: KnowledgeRule = {
      id: HIERARCHY_RULE,
      a: [allergy.code],
      b: [allergy.code],
      tier: 'contraindicated',
      statement: `The allergy (${allergy.label}) includes this medicine: it is the same substance or in the same class.`,
      source: HIERARCHY_RULE,
    };
    return finding(k, 'allergy', rule, substance, other);
  }
  const best = k.allergyClasses
    .filter((r) => matches(r.a, allergy.code) && matches(r.b, medicine.code))
    .sort((x, y) => RANK[y.tier] - RANK[x.tier])[0];
  return best ? finding(k, 'allergy', best, substance, other) : null;
}

/** Every interaction rule two medicines meet (either way round); none for the same code (the duplicate warning's). */
export function interactionFindings(k: MedicineKnowledge, x: CheckedEntry, y: CheckedEntry): MedicineFinding[] {
  if (x.code === y.code) return [];
  return k.interactions
    .filter((r) => (matches(r.a, x.code) && matches(r.b, y.code)) || (matches(r.a, y.code) && matches(r.b, x.code)))
    .map((r) => finding(k, 'interaction', r, x.label, y.label));
}

function warningOf(f: MedicineFinding): RecordWarning | null {
  if (f.tier === 'minor') return null;
  const code =
    f.type === 'allergy'
      ? f.tier === 'contraindicated'
        ? MEDICINE_WARNING_CODES.allergyContraindicated
        : MEDICINE_WARNING_CODES.allergyCrossReactivity
      : f.tier === 'contraindicated'
        ? MEDICINE_WARNING_CODES.interactionContraindicated
        : MEDICINE_WARNING_CODES.interactionSerious;
  const params: MedicineWarningParams & Record<string, string> = {
    substance: f.substance,
    other: f.other,
    tier: f.tier,
    statement: f.statement,
    version: f.version,
    source: f.source,
    rule: f.rule,
  };
  const what = f.type === 'allergy' ? 'allergy' : 'interaction';
  return { code, tier: f.tier, message: `${f.tier} ${what}: ${f.substance} and ${f.other} (knowledge ${f.version})`, params };
}

/** The check's warnings: one per contraindicated or serious finding; minor findings are listed with the medicine only. */
export const warningsOf = (findings: readonly MedicineFinding[]): RecordWarning[] =>
  findings.map(warningOf).filter((w): w is RecordWarning => w !== null);

/** The warning when the knowledge is not loaded: the entry was not checked, and the caller must confirm that. */
export function unavailableWarning(problem: string): RecordWarning {
  return {
    code: MEDICINE_WARNING_CODES.unavailable,
    tier: 'serious',
    message: `Medicine checks are unavailable (${problem}): this entry was not checked`,
    params: { problem },
  };
}

/** The loaded knowledge, or the warning that stands in for every check while it is unavailable. */
export function knowledgeOrWarning(): { knowledge: MedicineKnowledge } | { warning: RecordWarning } {
  const state = medicineKnowledgeState();
  return state.available ? { knowledge: state.knowledge } : { warning: unavailableWarning(state.problem) };
}
