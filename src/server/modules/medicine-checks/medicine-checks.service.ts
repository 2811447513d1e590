// The medicine checks themselves (decision 043): what the knowledge says about a medicine and an allergy, and about
// two medicines, as findings; and the warnings of the warnings-then-confirm protocol they become. Pure: the records
// kinds read the patient's allergies and medicines and call these.
import {
  MEDICINE_WARNING_CODES,
  type MedicineCheckTier,
  type MedicineFindingView,
  type MedicineWarningParams,
} from '../../../contracts/medicine-checks';
import type { RecordWarning } from '../../../contracts/record-warnings';
import type { KnowledgeRule, MedicineKnowledge, Statements } from './knowledge-files';
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
  /** The clinical statement in English, Afrikaans and Oshiwambo. */
  statements: Statements;
  rule: string;
  source: string;
  version: string;
}

const RANK: Record<MedicineCheckTier, number> = { contraindicated: 3, serious: 2, minor: 1 };
const matches = (prefixes: readonly string[], code: string): boolean => prefixes.some((p) => code.startsWith(p));
const HIERARCHY_RULE = 'atc-hierarchy';

/** A text of medicine-check-texts.tsv in every language, its `{name}` placeholders filled in. */
export function knowledgeText(k: MedicineKnowledge, key: string, values: Record<string, string>): Statements {
  const texts = k.texts.get(key) ?? { en: key, af: key, ng: key };
  const fill = (t: string): string => t.replace(/\{([a-z]+)\}/g, (_m, name: string) => values[name] ?? '');
  return { en: fill(texts.en), af: fill(texts.af), ng: fill(texts.ng) };
}

function finding(
  k: MedicineKnowledge,
  type: MedicineFinding['type'],
  rule: KnowledgeRule,
  substance: string,
  other: string,
): MedicineFinding {
  const source = k.sources.get(rule.source)?.title ?? rule.source;
  return { type, tier: rule.tier, substance, other, statements: rule.statements, rule: rule.id, source, version: k.version };
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
      statements: knowledgeText(k, HIERARCHY_RULE, { allergy: allergy.label }),
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

/** The code a finding is named by: a warning's code, or INTERACTION_MINOR for a minor one (never a warning). */
export function findingCode(f: MedicineFinding): string {
  if (f.tier === 'minor') return MEDICINE_WARNING_CODES.interactionMinor;
  if (f.type === 'allergy')
    return f.tier === 'contraindicated' ? MEDICINE_WARNING_CODES.allergyContraindicated : MEDICINE_WARNING_CODES.allergyCrossReactivity;
  return f.tier === 'contraindicated' ? MEDICINE_WARNING_CODES.interactionContraindicated : MEDICINE_WARNING_CODES.interactionSerious;
}

function warningOf(f: MedicineFinding): RecordWarning | null {
  if (f.tier === 'minor') return null;
  const code = findingCode(f);
  const params: MedicineWarningParams & Record<string, string> = {
    substance: f.substance,
    other: f.other,
    tier: f.tier,
    statement: f.statements.en,
    statementAf: f.statements.af,
    statementNg: f.statements.ng,
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

/** A finding as the API shows it (the medicine's details, CDS Hooks): its code, tier, both entries and the statements. */
export const findingView = (f: MedicineFinding): MedicineFindingView => ({
  code: findingCode(f),
  tier: f.tier,
  substance: f.substance,
  other: f.other,
  statement: f.statements.en,
  statementAf: f.statements.af,
  statementNg: f.statements.ng,
  rule: f.rule,
  source: f.source,
  version: f.version,
});
