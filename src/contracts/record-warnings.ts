// The warnings-then-confirm protocol (issue 22 item 1; decision 040): a change a kind's check finds worth a second
// look is refused with 409 CONFIRMATION_REQUIRED, `details.warnings` naming each warning; the caller sends the same
// request again with `?confirm=<code>,<code>` naming every warning it confirms. A warning it did not name (one that
// appeared since) refuses it again: a confirmation is never blanket. A warning of tier `contraindicated` (the medicine
// checks, decision 043) is confirmed only together with `overrideReason=<text>`, which is stored and audited.
import { z } from 'zod';
import { safeString } from './fields';
import { OVERRIDE_REASON_MAX, OVERRIDE_REASON_MIN } from './medicine-checks';

export interface RecordWarning {
  /** Stable and upper-case, e.g. DUPLICATE_ENTRY; the client translates `warnings.<code>`. */
  code: string;
  /** English, for API callers and logs. */
  message: string;
  /** Values the translated text names. */
  params?: Record<string, string | number>;
  /** Set by the medicine checks: `contraindicated` needs an override reason besides the confirmation. */
  tier?: 'contraindicated' | 'serious';
}

export const WARNING_CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,63}$/;

/** The `confirm` query parameter of a record add or edit: warning codes, comma-separated. */
export const confirmQuery = z.object({
  confirm: z
    .string()
    .max(1000, { error: 'validation:tooLong' })
    .optional()
    .transform((v) =>
      v
        ? v
            .split(',')
            .map((c) => c.trim())
            .filter(Boolean)
        : [],
    )
    .refine((codes) => codes.every((c) => WARNING_CODE_PATTERN.test(c)), { error: 'validation:confirmInvalid' }),
  /** Why a contraindicated warning is overridden; blank is none. */
  overrideReason: safeString('validation:reasonInvalid')
    .trim()
    .max(OVERRIDE_REASON_MAX, { error: 'validation:tooLong' })
    .optional()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || v.length >= OVERRIDE_REASON_MIN, { error: 'validation:overrideReasonTooShort' }),
});
