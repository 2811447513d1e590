// Probable duplicate patients (issue 24, docs/decisions/046-duplicate-matcher.md): the pairs the matcher proposes,
// why each matched, the reviewer's decisions and the registry-wide scan's progress.
import { z } from 'zod';
import { textOrNoFilter } from './fields';
import { patientJoin, sameDecisionInput } from './patient-joins';
import { patientSummary } from './patients';
import { recordSummary } from './record-api';
import { isSafeText } from './safe-text';

export const MATCH_BANDS = ['very-likely', 'possible'] as const;
export type MatchBand = (typeof MATCH_BANDS)[number];

export const PAIR_STATUSES = ['open', 'same', 'different', 'skipped'] as const;
export type PairStatus = (typeof PAIR_STATUSES)[number];

/** The fields the matcher compares. */
export const MATCH_FIELDS = ['firstName', 'lastName', 'names', 'dateOfBirth', 'sex', 'place', 'contactNumber'] as const;
export type MatchField = (typeof MATCH_FIELDS)[number];

/**
 * How a field compared. Names: exact, accents (equal once accents and punctuation are dropped), typo (one or two
 * letters off), soundsLike (same phonetic code), part (one half of a double name), similar (many shared letter
 * triples), missing (blank or a placeholder such as "Unknown" or "Baby"), different; names swapped (first and last
 * the other way round). Date of birth: exact, dayMonthSwapped, oneDigit, dayApart (30th and 29th), yearOff (a year
 * apart, same day and month),
 * missing, different. Sex: same, different. Place: address (nearly the same address), town, region, different,
 * missing. Contact number: same.
 */
export const MATCH_AGREEMENTS = [
  'exact',
  'accents',
  'typo',
  'soundsLike',
  'part',
  'similar',
  'missing',
  'different',
  'swapped',
  'dayMonthSwapped',
  'oneDigit',
  'dayApart',
  'yearOff',
  'same',
  'address',
  'town',
  'region',
] as const;
export type MatchAgreement = (typeof MATCH_AGREEMENTS)[number];

/** One field's comparison and the weight it added to the score (log2 of how much likelier it is for a true pair). */
export const matchReason = z.object({
  field: z.enum(MATCH_FIELDS),
  agreement: z.enum(MATCH_AGREEMENTS),
  weight: z.number(),
});
export type MatchReason = z.infer<typeof matchReason>;

export const duplicatePair = z.object({
  id: z.number().int(),
  patients: z.tuple([patientSummary, patientSummary]),
  score: z.number(),
  band: z.enum(MATCH_BANDS),
  reasons: z.array(matchReason),
  status: z.enum(PAIR_STATUSES),
  foundAt: z.string(),
  decidedAt: z.string().nullable(),
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
});
export type DuplicatePair = z.infer<typeof duplicatePair>;

export const DUPLICATE_PAGE_SIZE_MAX = 100;
const pageNumber = (max: number) =>
  z.coerce
    .number({ error: 'validation:invalidNumber' })
    .int({ error: 'validation:invalidNumber' })
    .min(1, { error: 'validation:invalidNumber' })
    .max(max, { error: 'validation:invalidNumber' });

/** `GET /api/duplicates`: best score first; facility = either patient has an entry recorded at that facility. */
export const duplicateQuery = z.strictObject({
  status: z.enum(PAIR_STATUSES, { error: 'validation:invalidChoice' }).default('open'),
  band: z.enum(MATCH_BANDS, { error: 'validation:invalidChoice' }).optional(),
  facility: textOrNoFilter(200),
  /** The region as written at the end of an address (e.g. "Oshana"): either patient lives there. */
  region: textOrNoFilter(100),
  page: pageNumber(100_000).default(1),
  pageSize: pageNumber(DUPLICATE_PAGE_SIZE_MAX).default(20),
});
export type DuplicateQueryInput = z.input<typeof duplicateQuery>;
export type DuplicateQuery = z.output<typeof duplicateQuery>;

export const duplicatePage = z.object({
  items: z.array(duplicatePair),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type DuplicatePage = z.infer<typeof duplicatePage>;

export const DECISION_REASON_MAX = 500;

/**
 * `POST /api/duplicates/{id}/decision`. "same" joins the two records (decision 048: contracts/patient-joins.ts);
 * "different" needs the reviewer's reason; "skip" leaves the pair for later (listed with status=skipped).
 */
export const duplicateDecisionInput = z.discriminatedUnion(
  'decision',
  [
    z.strictObject({
      decision: z.literal('different'),
      reason: z
        .string({ error: 'validation:duplicateReasonRequired' })
        .refine(isSafeText, { error: 'validation:textInvalid', abort: true })
        .trim()
        .min(1, { error: 'validation:duplicateReasonRequired' })
        .max(DECISION_REASON_MAX, { error: 'validation:tooLong' }),
    }),
    z.strictObject({
      decision: z.literal('skip'),
      reason: textOrNoFilter(DECISION_REASON_MAX),
    }),
    sameDecisionInput,
  ],
  { error: 'validation:duplicateDecisionInvalid' },
);
export type DuplicateDecisionInput = z.input<typeof duplicateDecisionInput>;
export type DuplicateSameInput = z.output<typeof sameDecisionInput>;

/** The decision's answer; a "same" decision adds the join (performed, or pending a second reviewer). */
export const duplicateDecisionResult = z.object({
  id: z.number().int(),
  status: z.enum(PAIR_STATUSES),
  joinId: z.number().int().optional(),
  join: patientJoin.optional(),
});
export type DuplicateDecisionResult = z.infer<typeof duplicateDecisionResult>;

export const duplicateIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, { error: 'validation:invalidId' })
    .transform(Number)
    .refine((n) => n <= 2_147_483_647, { error: 'validation:invalidId' }),
});

export const SCAN_STATUSES = ['never', 'running', 'paused', 'done'] as const;

/** `GET /api/duplicates/scan` and the answer of `POST`: the newest run of the registry-wide matcher. */
export const scanProgress = z.object({
  status: z.enum(SCAN_STATUSES),
  /** Patients of the run checked so far, of `total` (the registry's size when the run began). */
  done: z.number().int(),
  total: z.number().int(),
  /** Candidate pairs scored, and pairs kept in either band, so far. */
  compared: z.number().int(),
  pairs: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Seconds of matching so far (all sessions of a resumed run). */
  seconds: z.number(),
  thresholds: z.object({ veryLikely: z.number(), possible: z.number() }),
});
export type ScanProgress = z.infer<typeof scanProgress>;

/** One record of a pair as the reviewer compares it: demographics, every clinical list, and portal sign-in set up. */
export const pairRecord = recordSummary.extend({
  /** The patient has portal sign-in (a PIN): when both do, the reviewer picks whose to keep. */
  portal: z.boolean(),
  /** When the record was created (the older one is the default survivor). */
  createdAt: z.string(),
  /** Clinical rows of every list (what a join would move). */
  clinicalRows: z.number().int(),
});
export type PairRecord = z.infer<typeof pairRecord>;

/** `GET /api/duplicates/{id}`: the pair as in the queue, with both whole records in the pair's order. */
export const pairDetail = duplicatePair.extend({ records: z.tuple([pairRecord, pairRecord]) });
export type PairDetail = z.infer<typeof pairDetail>;
