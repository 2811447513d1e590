// The medicine checks seen from the review side (issue 25 items 4-5; decision 045): the monthly report of alerts
// shown, overridden and the override reasons (auditors and administrators), and each override as the privacy/quality
// review lists it (who, when, patient, medicine, finding, reason, knowledge version).
import { z } from 'zod';
import { MEDICINE_CHECK_TIERS } from './medicine-checks';
import { textOrNoFilter } from './fields';
import { pageNumber, REVIEW_PAGE_SIZE_MAX } from './privacy-review';

/** Where an alert was shown: a record add or edit (409), or a CDS Hooks card. */
export const ALERT_CHANNELS = ['record', 'cds-hooks'] as const;
export type AlertChannel = (typeof ALERT_CHANNELS)[number];

/** At most this many months in one report. */
export const REPORT_MONTHS_MAX = 24;
/** At most this many distinct override reasons listed in one report (the counts stay exact). */
export const REPORT_REASONS_MAX = 500;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
const month = z.string().regex(MONTH, { error: 'validation:dateInvalid' });

/** Months as YYYY-MM, counted from the first day of `from` to the last day of `to` (UTC). */
const monthIndex = (m: string): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;

/** GET /api/medicine-checks/report: both months or neither (then the last 12 months); an optional facility. */
export const medicineReportQuery = z
  .strictObject({
    from: month.optional(),
    to: month.optional(),
    facility: textOrNoFilter(200),
  })
  .refine((q) => (q.from === undefined) === (q.to === undefined), { error: 'validation:dateInvalid', path: ['to'] })
  .refine((q) => !q.from || !q.to || monthIndex(q.from) <= monthIndex(q.to), { error: 'validation:dateRangeOrder', path: ['to'] })
  .refine((q) => !q.from || !q.to || monthIndex(q.to) - monthIndex(q.from) < REPORT_MONTHS_MAX, {
    error: 'validation:dateRangeOrder',
    path: ['from'],
  });
export type MedicineReportQueryInput = z.input<typeof medicineReportQuery>;

const tierCounts = z.object({
  contraindicated: z.number().int(),
  serious: z.number().int(),
  minor: z.number().int(),
  total: z.number().int(),
});
export type TierCounts = z.infer<typeof tierCounts>;

/** One month of one facility (null: users without a facility). */
export const medicineReportRow = z.object({
  month: z.string(),
  facility: z.string().nullable(),
  shown: tierCounts,
  overridden: tierCounts,
});
export type MedicineReportRow = z.infer<typeof medicineReportRow>;

/** One override reason as written, how often it was given that month at that facility, and for which code. */
export const medicineReportReason = z.object({
  month: z.string(),
  facility: z.string().nullable(),
  code: z.string(),
  reason: z.string(),
  count: z.number().int(),
});
export type MedicineReportReason = z.infer<typeof medicineReportReason>;

export const medicineReport = z.object({
  from: z.string(),
  to: z.string(),
  facility: z.string().nullable(),
  rows: z.array(medicineReportRow),
  totals: z.object({ shown: tierCounts, overridden: tierCounts }),
  reasons: z.array(medicineReportReason),
  /** True when more distinct reasons exist than REPORT_REASONS_MAX. */
  reasonsTruncated: z.boolean(),
});
export type MedicineReport = z.infer<typeof medicineReport>;

/** GET /api/privacy-reviews/medicine-overrides. */
export const overrideListQuery = z.strictObject({
  page: pageNumber(100_000).default(1),
  pageSize: pageNumber(REVIEW_PAGE_SIZE_MAX).default(20),
});
export type OverrideListQueryInput = z.input<typeof overrideListQuery>;

/** One medicine-check warning a clinician went ahead over (medicine_check_overrides). */
export const medicineOverride = z.object({
  id: z.number().int(),
  at: z.string(),
  user: z.object({ id: z.string(), name: z.string() }),
  facility: z.string().nullable(),
  patient: z.object({ id: z.number().int(), name: z.string().nullable() }),
  /** The kind stored (medications or allergies) and its item. */
  kind: z.string(),
  itemId: z.number().int(),
  code: z.string(),
  tier: z.enum(MEDICINE_CHECK_TIERS),
  /** The entry stored and what it met on the record, as written. */
  substance: z.string(),
  other: z.string(),
  rule: z.string(),
  knowledgeVersion: z.string(),
  /** Null for a serious warning (confirm alone); a contraindicated one always has one. */
  reason: z.string().nullable(),
});
export type MedicineOverride = z.infer<typeof medicineOverride>;

export const medicineOverridePage = z.object({
  items: z.array(medicineOverride),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type MedicineOverridePage = z.infer<typeof medicineOverridePage>;
