// The record endpoints' shared shapes: the item id in a path, and the whole record in one answer.
import { z } from 'zod';
import { recordPatient } from './access';
import { KIND_CONTRACTS, RECORD_KINDS, type RecordLists } from './kinds';

/** GET /api/patients/{id}/record-summary: the patient and every list of the record (the dashboard's data). */
export const recordSummary = z.object({
  patient: recordPatient,
  ...(Object.fromEntries(RECORD_KINDS.map((k) => [k, z.array(KIND_CONTRACTS[k].row)])) as {
    [K in keyof RecordLists]: z.ZodArray<(typeof KIND_CONTRACTS)[K]['row']>;
  }),
});
export type RecordSummary = z.infer<typeof recordSummary>;

/** Path parameter: a positive int4 id. */
export const recordIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, { error: 'validation:invalidId' })
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, { error: 'validation:invalidId' }),
});
