// Medicine safety checks (issue 25 items 4-5; decision 043): the tiers of an alert, its warning codes, the override
// reason a contraindicated alert needs, and the status every form that checks reads so it never passes silently.
import { z } from 'zod';

/** contraindicated: 409, stored only with confirm and an override reason; serious: 409, confirm; minor: never 409. */
export const MEDICINE_CHECK_TIERS = ['contraindicated', 'serious', 'minor'] as const;
export type MedicineCheckTier = (typeof MEDICINE_CHECK_TIERS)[number];

/** The languages every clinical statement of the knowledge is written in (decision 045). */
export const STATEMENT_LANGUAGES = ['en', 'af', 'ng'] as const;
export type StatementLanguage = (typeof STATEMENT_LANGUAGES)[number];

/** The warning codes of the medicine checks (contracts/record-warnings.ts); the client translates `warnings.<code>`. */
export const MEDICINE_WARNING_CODES = {
  allergyContraindicated: 'MEDICINE_ALLERGY_CONTRAINDICATED',
  allergyCrossReactivity: 'MEDICINE_ALLERGY_CROSS_REACTIVITY',
  interactionContraindicated: 'INTERACTION_CONTRAINDICATED',
  interactionSerious: 'INTERACTION_SERIOUS',
  /** Never a warning: a minor interaction is listed with the medicine only (and as an info card by CDS Hooks). */
  interactionMinor: 'INTERACTION_MINOR',
  /** The knowledge files are missing or malformed: the entry was not checked (confirm to store it unchecked). */
  unavailable: 'MEDICINE_CHECKS_UNAVAILABLE',
} as const;

/** What a medicine-check warning's params carry (all strings, as RecordWarning params are). */
export interface MedicineWarningParams {
  /** The entry being stored (the medicine or the allergy), as written. */
  substance: string;
  /** What it meets on the record (an allergy or an active medicine), as written. */
  other: string;
  tier: Exclude<MedicineCheckTier, 'minor'>;
  /** The clinical statement in English; statementAf and statementNg in Afrikaans and Oshiwambo (decision 045). */
  statement: string;
  statementAf: string;
  statementNg: string;
  /** The knowledge version the alert came from, e.g. 2026-11-26.1+3f2a9c1b. */
  version: string;
  /** The source's title (medicine-check-sources.tsv). */
  source: string;
  /** The rule's id in its file. */
  rule: string;
}

export const OVERRIDE_REASON_MIN = 5;
export const OVERRIDE_REASON_MAX = 500;

/** GET /api/medicine-checks/status: whether the knowledge loaded at start, its version, and what is wrong if not. */
export const medicineChecksStatus = z.object({
  available: z.boolean(),
  version: z.string().nullable(),
  problem: z.string().nullable(),
});
export type MedicineChecksStatus = z.infer<typeof medicineChecksStatus>;

/** One finding of the medicine checks, any tier (GET /api/patients/{id}/medicine-checks; decision 045). */
export const medicineFinding = z.object({
  /** The warning code, or INTERACTION_MINOR. */
  code: z.string(),
  tier: z.enum(MEDICINE_CHECK_TIERS),
  substance: z.string(),
  other: z.string(),
  statement: z.string(),
  statementAf: z.string(),
  statementNg: z.string(),
  rule: z.string(),
  source: z.string(),
  version: z.string(),
});
export type MedicineFindingView = z.infer<typeof medicineFinding>;

/** GET /api/patients/{id}/medicine-checks: each active coded medicine with every finding it meets, minor ones too. */
export const recordMedicineChecks = z.object({
  available: z.boolean(),
  version: z.string().nullable(),
  problem: z.string().nullable(),
  medications: z.array(z.object({ id: z.number().int(), findings: z.array(medicineFinding) })),
});
export type RecordMedicineChecks = z.infer<typeof recordMedicineChecks>;

/** The statement of a finding or a warning's params in the reader's language (English when it has none). */
export function statementIn(params: Record<string, unknown>, language: string | undefined): string {
  const key = language === 'af' ? 'statementAf' : language === 'ng' ? 'statementNg' : 'statement';
  const text = params[key] ?? params.statement;
  return typeof text === 'string' ? text : '';
}
