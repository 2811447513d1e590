// Coded entries (issue 22 item 3): a kind whose main text can carry a code from one of the catalogues shipped with
// the app (catalogues/). The input takes `code` and `codeSystem` together or neither (free text, "uncoded"); the
// server checks the pair against the catalogue and stores the catalogue's display beside it. Rows carry all three,
// null when uncoded. Existing rows stay valid: they are uncoded.
import { z } from 'zod';
import { safeString } from '../fields';
import { CODE_MAX, CODE_SYSTEM_MAX } from '../code-systems';

export const CODE_PATTERN = new RegExp(`^[A-Za-z0-9][A-Za-z0-9.\\-]{0,${CODE_MAX - 1}}$`);

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
};
export type CodedRow = { code: string | null; codeSystem: string | null; codeDisplay: string | null };
