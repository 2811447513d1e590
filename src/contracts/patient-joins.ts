// Joining two records of one person (issue 24 items 4-8, docs/decisions/048-patient-joins.md): the reviewer's choice
// of survivor and of each demographic value, the join as stored (pending a second reviewer, joined, undone), and undo.
import { z } from 'zod';
import { textOrNoFilter } from './fields';
import { patientSummary } from './patients';
import { isSafeText } from './safe-text';

/** The demographic fields a reviewer picks, each from one of the two records. */
export const JOIN_DETAIL_FIELDS = [
  'firstName',
  'lastName',
  'dateOfBirth',
  'sex',
  'contactNumber',
  'address',
  'nextOfKin',
  'nextOfKinContact',
] as const;
export type JoinDetailField = (typeof JOIN_DETAIL_FIELDS)[number];

/** What `keep` may name: each demographic field, and `portal`: whose portal sign-in to keep. */
export const JOIN_KEEP_FIELDS = [...JOIN_DETAIL_FIELDS, 'portal'] as const;
export type JoinKeepField = (typeof JOIN_KEEP_FIELDS)[number];

export const JOIN_STATUSES = ['pending', 'joined', 'undone'] as const;
export type JoinStatus = (typeof JOIN_STATUSES)[number];

const patientId = z
  .number({ error: 'validation:invalidId' })
  .int({ error: 'validation:invalidId' })
  .positive({ error: 'validation:invalidId' });

/** `keep`: for each field, the id of the record whose value survives; a field left out keeps the survivor's value. */
export const joinKeep = z.partialRecord(z.enum(JOIN_KEEP_FIELDS, { error: 'validation:invalidChoice' }), patientId);
export type JoinKeep = z.infer<typeof joinKeep>;

export const JOIN_REASON_MAX = 500;
/** Why a join was wrong: required. */
const requiredReason = z
  .string({ error: 'validation:joinReasonRequired' })
  .refine(isSafeText, { error: 'validation:textInvalid', abort: true })
  .trim()
  .max(JOIN_REASON_MAX, { error: 'validation:tooLong' })
  .min(1, { error: 'validation:joinReasonRequired' });

/** The "same person" decision of `POST /api/duplicates/{id}/decision`: which record survives, and which values. */
export const sameDecisionInput = z.strictObject({
  decision: z.literal('same'),
  survivorId: patientId,
  keep: joinKeep.default({}),
  reason: textOrNoFilter(JOIN_REASON_MAX),
});

/** `POST /api/patient-joins/{id}/undo`: why the join was wrong. */
export const joinUndoInput = z.strictObject({ reason: requiredReason });
export type JoinUndoInput = z.input<typeof joinUndoInput>;

/** A join as the review screen and the API show it. */
export const patientJoin = z.object({
  id: z.number().int(),
  pairId: z.number().int().nullable(),
  status: z.enum(JOIN_STATUSES),
  survivor: patientSummary,
  merged: patientSummary,
  keep: joinKeep,
  /** The survivor's demographic values the join replaced, and with what. */
  replaced: z.record(z.string(), z.object({ from: z.string().nullable(), to: z.string().nullable() })),
  /** Clinical rows of both records when the join was asked for (above the limit, a second reviewer must approve). */
  clinicalRows: z.number().int(),
  rowsMoved: z.number().int(),
  reason: z.string().nullable(),
  requestedBy: z.string().nullable(),
  requestedAt: z.string(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  joinedAt: z.string().nullable(),
  undoneBy: z.string().nullable(),
  undoneAt: z.string().nullable(),
  undoReason: z.string().nullable(),
});
export type PatientJoin = z.infer<typeof patientJoin>;

export const joinQuery = z.strictObject({
  status: z.enum(JOIN_STATUSES, { error: 'validation:invalidChoice' }).optional(),
  patientId: z.coerce
    .number({ error: 'validation:invalidId' })
    .int({ error: 'validation:invalidId' })
    .positive({ error: 'validation:invalidId' })
    .optional(),
});

export const joinList = z.array(patientJoin);

export const joinIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, { error: 'validation:invalidId' })
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, { error: 'validation:invalidId' }),
});
