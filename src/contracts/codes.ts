// Coded entries from the catalogues shipped in catalogues/ (issue 22 item 3): the kinds, their code systems, the
// look-up request and answer (GET /api/codes), and the check a coded input must pass.
import { z } from 'zod';
import { safeString, text } from './fields';
import { CODE_DISPLAY_MAX, CODE_MAX, CODE_SYSTEM_MAX } from './code-systems';
import { CODED_KINDS, kindContract, type CodedKind } from './kinds';

/** The kinds whose entries can be coded: each has a catalogue named after it (catalogues/<kind>.tsv). */
export const CODE_KINDS = CODED_KINDS as [CodedKind, ...CodedKind[]];
export type CodeKind = CodedKind;

/** The code systems each kind's coded entries may use (the first is the kind's own), from the kinds' contracts. */
export const KIND_SYSTEMS = Object.fromEntries(CODE_KINDS.map((k) => [k, kindContract(k).coded!.systems])) as Readonly<
  Record<CodeKind, readonly string[]>
>;

export * from './code-systems';

export const CODE_QUERY_MAX = 50;
export const CODES_LIMIT_DEFAULT = 10;
export const CODES_LIMIT_MAX = 25;

/** GET /api/codes?kind=&q=&limit= */
export const codesQuery = z.strictObject({
  kind: z.enum(CODE_KINDS, { error: 'validation:invalidChoice' }),
  q: text(CODE_QUERY_MAX),
  limit: z.coerce
    .number({ error: 'validation:invalidNumber' })
    .int({ error: 'validation:invalidNumber' })
    .min(1, { error: 'validation:invalidNumber' })
    .max(CODES_LIMIT_MAX, { error: 'validation:invalidNumber' })
    .default(CODES_LIMIT_DEFAULT),
});
export type CodesQueryInput = z.input<typeof codesQuery>;
export type CodesQuery = z.output<typeof codesQuery>;

/** A coded value as records carry it (additive to a kind's free-text field: the text stays what SPEC says). */
export const codedValue = z.object({
  code: safeString('validation:codeUnknown')
    .trim()
    .min(1, { error: 'validation:codeUnknown' })
    .max(CODE_MAX, { error: 'validation:tooLong' }),
  codeSystem: safeString('validation:codeSystemUnknown')
    .trim()
    .min(1, { error: 'validation:codeSystemUnknown' })
    .max(CODE_SYSTEM_MAX, { error: 'validation:tooLong' }),
  display: z.string().max(CODE_DISPLAY_MAX),
});
export type CodedValue = z.infer<typeof codedValue>;

/** One catalogue entry as the look-up answers it: the coded value plus what its kind adds. */
export const codeEntry = codedValue.extend({
  /** Other names it is known by (brand names, short names clinics use, e.g. "MR", "acetaminophen"). */
  synonyms: z.array(z.string()),
  /** lab-results: short name, UCUM unit, value type and an adult reference range a form may pre-fill. */
  shortName: z.string().optional(),
  unit: z.string().optional(),
  valueType: z.enum(['numeric', 'text']).optional(),
  referenceLow: z.number().nullable().optional(),
  referenceHigh: z.number().nullable().optional(),
  /** vaccines: the WHO ATC (J07) code, when one fits. */
  atc: z.string().optional(),
  /** allergies: the FHIR AllergyIntolerance category. */
  category: z.enum(['medication', 'food', 'environment', 'biologic']).optional(),
});
export type CodeEntry = z.infer<typeof codeEntry>;

export const codesAnswer = z.object({
  kind: z.enum(CODE_KINDS),
  query: z.string(),
  results: z.array(codeEntry),
});
export type CodesAnswer = z.infer<typeof codesAnswer>;

/** Why a coded input was refused: its system is not one of the kind's, or the code is not in the catalogue. */
export type CodeCheckFailure = 'unknown-system' | 'unknown-code';

/** The field message (i18n key) for each refusal, for a 400 VALIDATION_FAILED issue on `code` or `codeSystem`. */
export const CODE_CHECK_MESSAGES: Readonly<Record<CodeCheckFailure, string>> = {
  'unknown-system': 'validation:codeSystemUnknown',
  'unknown-code': 'validation:codeUnknown',
};
