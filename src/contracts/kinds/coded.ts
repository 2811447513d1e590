// Coded entries (issue 22 item 3): a kind whose main text can carry a code from one of the catalogues shipped with
// the app (catalogues/). The input takes `code` and `codeSystem` together or neither (free text, "uncoded"); the
// server checks the pair against the catalogue and stores the catalogue's display beside it. Rows carry all three,
// null when uncoded. Existing rows stay valid: they are uncoded. `codings` (decision 049) keeps every coding an entry
// was sent with (a FHIR client's SNOMED CT or IPS codes beside, or instead of, the catalogue's), as sent.
import { z } from 'zod';
import { safeString } from '../fields';
import { CODE_DISPLAY_MAX, CODE_MAX, CODE_SYSTEM_MAX } from '../code-systems';

export const CODE_PATTERN = new RegExp(`^[A-Za-z0-9][A-Za-z0-9.\\-]{0,${CODE_MAX - 1}}$`);

/** A FHIR code: no leading, trailing or double whitespace. */
const CODING_CODE = /^\S+( \S+)*$/;
/** Longest code and display of a coding kept as sent. */
export const CODING_CODE_MAX = 64;
export const MAX_CODINGS = 10;

/** One coding as a FHIR client sent it: its system, code and (optional) display. */
export const codingInput = z.strictObject({
  system: safeString('validation:codeSystemInvalid')
    .min(1, { error: 'validation:codeSystemInvalid' })
    .max(CODE_SYSTEM_MAX, { error: 'validation:tooLong' }),
  code: safeString('validation:codeInvalid')
    .max(CODING_CODE_MAX, { error: 'validation:tooLong' })
    .regex(CODING_CODE, { error: 'validation:codeInvalid' }),
  display: safeString('validation:textInvalid').max(CODE_DISPLAY_MAX, { error: 'validation:tooLong' }).optional(),
});
export type Coding = z.infer<typeof codingInput>;

/** Every coding the entry was sent with, in the order sent; missing, null or [] is none. */
export const codingsInput = z
  .array(codingInput, { error: 'validation:codeInvalid' })
  .max(MAX_CODINGS, { error: 'validation:tooLong' })
  .nullish()
  .transform((v) => (v && v.length ? v : null));

/** The input half: `code` and `codeSystem`, both or neither (missing, null or '' is none). */
export const codedInputShape = {
  code: safeString('validation:codeInvalid')
    .trim()
    .nullish()
    .refine((v) => !v || CODE_PATTERN.test(v), { error: 'validation:codeInvalid' })
    .transform((v) => (v ? v : null)),
  codeSystem: safeString('validation:codeSystemInvalid')
    .trim()
    .max(CODE_SYSTEM_MAX, { error: 'validation:tooLong' })
    .nullish()
    .transform((v) => (v ? v : null)),
  codings: codingsInput,
};

/** Both or neither: a refinement for a schema holding codedInputShape. */
export const codePaired = (v: { code: string | null; codeSystem: string | null }): boolean => (v.code === null) === (v.codeSystem === null);
export const CODE_PAIRED = { error: 'validation:codePaired', path: ['code'] };

/** The row half: null when the entry is uncoded (free text). */
export const codedRowShape = {
  code: z.string().nullable(),
  codeSystem: z.string().nullable(),
  /** The catalogue's title of the code, as it was when the entry was stored. */
  codeDisplay: z.string().nullable(),
  /** Every coding the entry was sent with (FHIR), as sent; null (or absent) when it came with none of its own. */
  codings: z
    .array(z.object({ system: z.string(), code: z.string(), display: z.string().optional() }))
    .nullable()
    .optional(),
};
export type CodedRow = {
  code: string | null;
  codeSystem: string | null;
  codeDisplay: string | null;
  codings?: { system: string; code: string; display?: string }[] | null;
};
