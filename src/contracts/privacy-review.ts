// Privacy review of break-the-glass accesses (docs/decisions/018-privacy-review.md): the review queue, the flags
// computed from the audit data, the verdicts (audit rows themselves) and what the patient is told.
import { z } from 'zod';
import { textOrNoFilter } from './fields';

export const REVIEW_VERDICTS = ['JUSTIFIED', 'NOT_JUSTIFIED', 'FOLLOW_UP'] as const;
export type ReviewVerdict = (typeof REVIEW_VERDICTS)[number];

/**
 * Why an access looks suspicious. Each flag carries the numbers behind it, so the screen can say why:
 * GRANT_RATE: more than `threshold` record-access confirmations by the user in the hour up to this one;
 * SAME_SURNAME / SAME_ADDRESS: the patient shares the user's surname or home address;
 * OUT_OF_REGION: the patient lives in another region than the user's facility;
 * RESTRICTED_RECORD: the record is marked VIP/restricted;
 * NEW_IP_SEARCHES: the session began from an address the user never signed in from, and ran more than
 *   `threshold` searches;
 * BULK_SEARCH: the user's searches within `minutes` of this access returned more than `threshold` distinct patients.
 */
export const FLAG_CODES = [
  'GRANT_RATE',
  'SAME_SURNAME',
  'SAME_ADDRESS',
  'OUT_OF_REGION',
  'RESTRICTED_RECORD',
  'NEW_IP_SEARCHES',
  'BULK_SEARCH',
] as const;
export type FlagCode = (typeof FLAG_CODES)[number];

export const reviewFlag = z.object({
  code: z.enum(FLAG_CODES),
  /** The figures behind the flag (count, threshold, minutes, regions, address). */
  details: z.record(z.string(), z.union([z.string(), z.number()])),
});
export type ReviewFlag = z.infer<typeof reviewFlag>;

export const reviewVerdictRecord = z.object({
  verdict: z.enum(REVIEW_VERDICTS),
  note: z.string(),
  reviewerId: z.string(),
  reviewerName: z.string(),
  /** ISO 8601 UTC. */
  at: z.string(),
});
export type ReviewVerdictRecord = z.infer<typeof reviewVerdictRecord>;

const roleRef = z.object({ name: z.string(), displayName: z.string() }).nullable();

/** One break-the-glass access in the queue; id is the access's audit row id. */
export const breakGlassAccess = z.object({
  id: z.number().int(),
  at: z.string(),
  user: z.object({ id: z.string(), name: z.string(), role: roleRef }),
  facility: z.string().nullable(),
  patient: z.object({ id: z.number().int(), name: z.string().nullable(), restricted: z.boolean() }),
  reason: z.string().nullable(),
  flags: z.array(reviewFlag),
  /** The latest verdict, or null while unreviewed. */
  review: reviewVerdictRecord.nullable(),
});
export type BreakGlassAccess = z.infer<typeof breakGlassAccess>;

export const REVIEW_STATUSES = ['unreviewed', 'reviewed', 'all'] as const;
export const REVIEW_PAGE_SIZE_MAX = 100;

/** A page number or size from a query string (1..max). */
export const pageNumber = (max: number) =>
  z.coerce
    .number({ error: 'validation:invalidNumber' })
    .int({ error: 'validation:invalidNumber' })
    .min(1, { error: 'validation:invalidNumber' })
    .max(max, { error: 'validation:invalidNumber' });

/** GET /api/privacy-reviews. */
export const reviewQueueQuery = z.strictObject({
  status: z.enum(REVIEW_STATUSES, { error: 'validation:invalidChoice' }).default('unreviewed'),
  facility: textOrNoFilter(200),
  userId: textOrNoFilter(64),
  /** One person's accesses: this patient's and those of every record joined with it (decision 048). */
  patientId: z.coerce
    .number({ error: 'validation:invalidId' })
    .int({ error: 'validation:invalidId' })
    .min(1, { error: 'validation:invalidId' })
    .max(2_147_483_647, { error: 'validation:invalidId' })
    .optional(),
  page: pageNumber(100_000).default(1),
  pageSize: pageNumber(REVIEW_PAGE_SIZE_MAX).default(20),
});
export type ReviewQueueQueryInput = z.input<typeof reviewQueueQuery>;
export type ReviewQueueQuery = z.output<typeof reviewQueueQuery>;

export const reviewQueuePage = z.object({
  items: z.array(breakGlassAccess),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type ReviewQueuePage = z.infer<typeof reviewQueuePage>;

/** What the user read and changed about the patient while the grant was live (the audit rows). */
export const grantActivityItem = z.object({
  id: z.number().int(),
  at: z.string(),
  action: z.string(),
  resourceType: z.string(),
  resourceId: z.string().nullable(),
  oldValues: z.unknown(),
  newValues: z.unknown(),
});
export type GrantActivityItem = z.infer<typeof grantActivityItem>;

/** GET /api/privacy-reviews/{id}. */
export const breakGlassDetail = z.object({
  access: breakGlassAccess,
  grantExpiresAt: z.string().nullable(),
  activity: z.array(grantActivityItem),
  /** Every verdict recorded, newest first. */
  reviews: z.array(reviewVerdictRecord),
});
export type BreakGlassDetail = z.infer<typeof breakGlassDetail>;

export const REVIEW_NOTE_MAX = 1000;

/** POST /api/privacy-reviews/{id}/verdict. */
export const recordVerdictInput = z.strictObject({
  verdict: z.enum(REVIEW_VERDICTS, { error: 'privacy:validation.verdictRequired' }),
  note: z
    .string({ error: 'privacy:validation.noteRequired' })
    .trim()
    .min(1, { error: 'privacy:validation.noteRequired' })
    .max(REVIEW_NOTE_MAX, { error: 'validation:tooLong' }),
});
export type RecordVerdictInput = z.input<typeof recordVerdictInput>;

/** Path parameter: an audit row id (bigint, within JavaScript's safe integers). */
export const reviewIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,15}$/, { error: 'validation:invalidId' })
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n), { error: 'validation:invalidId' }),
});

/** GET /api/privacy-reviews/summary: the reviewer's dashboard counts. */
export const reviewSummary = z.object({
  unreviewed: z.number().int(),
  followUp: z.number().int(),
  notJustified: z.number().int(),
});
export type ReviewSummary = z.infer<typeof reviewSummary>;

/** PUT /api/patients/{id}/restricted. */
export const restrictPatientInput = z.strictObject({ restricted: z.boolean({ error: 'validation:invalidChoice' }) });
export const restrictPatientResult = z.object({ id: z.number().int(), restricted: z.boolean() });

/** GET /api/patient-portal/access-summary: the overview's counter. */
export const portalAccessSummary = z.object({ unreviewedEmergencyAccesses: z.number().int() });
export type PortalAccessSummary = z.infer<typeof portalAccessSummary>;

/** Volume alerts raised by the server (docs/decisions/011-rate-limits-and-volume-alerts.md). */
export const VOLUME_ALERT_TYPES = [
  'BULK_SEARCH_ALERT',
  'BULK_SEARCH_DAILY_ALERT',
  'GRANT_VOLUME_ALERT',
  // Issue 21 (decisions 031, 032): failed patient sign-ins spread over many NC numbers (no staff user); many portal
  // activation codes issued by one staff member; a portal activated soon after its code, by the issuer's own address or
  // device, then read.
  'SIGN_IN_SPRAY_ALERT',
  'PORTAL_CODE_VOLUME_ALERT',
  'PORTAL_DESK_ACTIVATION_ALERT',
  // Issue 24 item 7 (decision 048): a patient reported that the join of two of their records is wrong.
  'PATIENT_JOIN_REPORTED',
] as const;
export type VolumeAlertType = (typeof VOLUME_ALERT_TYPES)[number];

export const volumeAlertQuery = z.strictObject({
  page: pageNumber(100_000).default(1),
  pageSize: pageNumber(REVIEW_PAGE_SIZE_MAX).default(20),
});
export type VolumeAlertQueryInput = z.input<typeof volumeAlertQuery>;

export const volumeAlert = z.object({
  id: z.number().int(),
  at: z.string(),
  type: z.enum(VOLUME_ALERT_TYPES),
  /** The staff member the alert is about; null for an alert about no one user (SIGN_IN_SPRAY_ALERT). */
  user: z.object({ id: z.string(), name: z.string() }).nullable(),
  /** 'HIGH', or 'CRITICAL' for the most urgent (PORTAL_DESK_ACTIVATION_ALERT). */
  severity: z.string(),
  /** How many distinct patients (bulk search) or record-access confirmations (grants), over what threshold and minutes. */
  count: z.number().int(),
  threshold: z.number().int(),
  minutes: z.number().int(),
  /** When the count last grew: a bulk-search alert keeps counting while it is open (decision 036). */
  updatedAt: z.string(),
  /** PATIENT_JOIN_REPORTED: the join reported and its two records (decision 048). */
  patientJoin: z.object({ joinId: z.number().int(), survivorId: z.number().int(), mergedId: z.number().int() }).optional(),
  /** Far past its threshold (more than 4 times): CRITICAL. */
  escalated: z.boolean(),
});
export type VolumeAlert = z.infer<typeof volumeAlert>;

export const volumeAlertPage = z.object({
  items: z.array(volumeAlert),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type VolumeAlertPage = z.infer<typeof volumeAlertPage>;
