// Medicine safety checks (issue 25 items 4-5; decision 043): the tiers of an alert, its warning codes, the override
// reason a contraindicated alert needs, and the status every form that checks reads so it never passes silently.
import { z } from 'zod';

/** contraindicated: 409, stored only with confirm and an override reason; serious: 409, confirm; minor: never 409. */
export const MEDICINE_CHECK_TIERS = ['contraindicated', 'serious', 'minor'] as const;
export type MedicineCheckTier = (typeof MEDICINE_CHECK_TIERS)[number];

/** The warning codes of the medicine checks (contracts/record-warnings.ts); the client translates `warnings.<code>`. */
export const MEDICINE_WARNING_CODES = {
  allergyContraindicated: 'MEDICINE_ALLERGY_CONTRAINDICATED',
  allergyCrossReactivity: 'MEDICINE_ALLERGY_CROSS_REACTIVITY',
  interactionContraindicated: 'INTERACTION_CONTRAINDICATED',
  interactionSerious: 'INTERACTION_SERIOUS',
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
  statement: string;
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
