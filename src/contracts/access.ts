// Record access (DESIGN.md §4, break-the-glass) and the patient's demographics as the record shows them (SPEC §3).
import { z } from 'zod';
import { safeString } from './fields';
import { patientDetails, patientSummary } from './patients';

export const ACCESS_REASON_MIN = 5;
export const ACCESS_REASON_MAX = 500;
/** How long a confirmation lets a user open that patient's record. */
export const ACCESS_GRANT_HOURS = 8;
/** The 403 message of every record endpoint without a live grant; the client recognises it. */
export const ACCESS_NOT_CONFIRMED_MESSAGE = 'Access to this record has not been confirmed';

/**
 * POST /api/patients/{id}/access: `{ consent: true }` or `{ consent: false, reason }` (5-500 characters after
 * trimming). With consent the reason is optional (kept when given).
 */
export const recordAccessInput = z
  .strictObject({
    consent: z.boolean({ error: 'validation:accessChoiceRequired' }),
    reason: safeString('validation:accessReasonLength')
      .trim()
      .max(ACCESS_REASON_MAX, { error: 'validation:accessReasonLength' })
      .nullish()
      .transform((v) => (v ? v : null)),
  })
  .refine((v) => v.consent || (v.reason !== null && v.reason.length >= ACCESS_REASON_MIN), {
    error: 'validation:accessReasonLength',
    path: ['reason'],
  });
export type RecordAccessInput = z.input<typeof recordAccessInput>;
export type RecordAccessRequest = z.output<typeof recordAccessInput>;

export const accessGrant = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  consent: z.boolean(),
  reason: z.string().nullable(),
  grantedAt: z.string(),
  expiresAt: z.string(),
});
export type AccessGrant = z.infer<typeof accessGrant>;

/** GET /api/patients/{id}: the SPEC §3 patient fields (the one patient shape, patients.ts). */
export const recordPatient = patientDetails;
export type RecordPatient = z.infer<typeof recordPatient>;

/** A record joined into this one (decision 048): its id and NC number, which still find this record, and when. */
export const joinedRecord = z.object({ id: z.number().int(), idNumber: z.string(), joinedAt: z.string().nullable() });
export type JoinedRecord = z.infer<typeof joinedRecord>;

/**
 * GET /api/patients/{id}: the patient, and (additive, decision 048) `replaces`, the records joined into it (live
 * joins; absent when none); for a record joined away, its own old demographics with `replacedBy`, the record it now belongs to.
 */
export const patientRead = recordPatient.extend({
  replaces: z.array(joinedRecord).optional(),
  replacedBy: patientSummary.optional(),
});
export type PatientRead = z.infer<typeof patientRead>;
