// Laboratory results (issue 22 item 2): a test (LOINC when picked from the catalogue), its value (a number, or text
// such as "Positive"), UCUM unit and reference range; the answer adds the abnormal flag computed from the range and
// who entered the result.
import { z } from 'zod';
import { PORTAL_HIDDEN, versionedRowShape } from './versioned';
import { safeString, textOrNull } from '../fields';
import { CODE_PAIRED, codePaired, codedInputShape, codedRowShape, codingsInput } from './coded';
import { choice, day, requiredDate, requiredText, type Now } from './fields';
import { LOINC_SYSTEM } from '../code-systems';
import { defineKind, type DashboardAlert } from './kind-contract';

export const LAB_RESULT_STATUSES = ['final', 'preliminary', 'corrected'] as const;
export type LabResultStatus = (typeof LAB_RESULT_STATUSES)[number];
export const ABNORMAL_FLAGS = ['LL', 'L', 'H', 'HH'] as const;
export type AbnormalFlag = (typeof ABNORMAL_FLAGS)[number];

/** Values and range ends stay within what a laboratory reports. */
const LAB_NUMBER_LIMIT = 1e9;
/** A UCUM unit as written: printable ASCII, no spaces (mmol/L, 10*9/L, %, {copies}/mL). */
export const UNIT_PATTERN = /^[!-~]{1,32}$/;

const labNumber = (message: string) =>
  z
    .number({ error: message })
    .refine(Number.isFinite, { error: message })
    .refine((n) => Math.abs(n) < LAB_NUMBER_LIMIT, { error: message });

const optionalLabNumber = (message: string) =>
  labNumber(message)
    .nullish()
    .transform((v) => v ?? null);

const input = (now: Now) =>
  z
    .strictObject({
      name: requiredText(200, 'validation:labTestRequired').min(2, { error: 'validation:labTestLength' }),
      ...codedInputShape,
      /** A number, or text for a result that is not one ("Positive", "Not detected"). */
      value: z.union([labNumber('validation:labValueInvalid'), requiredText(100, 'validation:labValueRequired')], {
        error: (issue) =>
          issue.input === undefined || issue.input === null || (typeof issue.input === 'string' && issue.input.trim() === '')
            ? 'validation:labValueRequired'
            : 'validation:labValueInvalid',
      }),
      unit: safeString('validation:unitInvalid')
        .trim()
        .nullish()
        .refine((v) => !v || UNIT_PATTERN.test(v), { error: 'validation:unitInvalid' })
        .transform((v) => (v ? v : null)),
      referenceLow: optionalLabNumber('validation:referenceInvalid'),
      referenceHigh: optionalLabNumber('validation:referenceInvalid'),
      collectedDate: requiredDate(now, 'validation:dateRequired', 'past'),
      status: choice(LAB_RESULT_STATUSES, 'validation:statusRequired'),
      facility: requiredText(200, 'validation:facilityRequired'),
    })
    .refine(codePaired, CODE_PAIRED)
    .refine((v) => v.referenceLow === null || v.referenceHigh === null || v.referenceLow <= v.referenceHigh, {
      error: 'validation:referenceRangeInverted',
      path: ['referenceLow'],
    });

/**
 * The flag of a numeric value against its reference range: H above the high end, L below the low end; HH and LL when
 * it lies further outside than the range is wide (or, with only one end known, beyond twice the high end or below
 * half the low end). Null for text values, values in range, and results without a range.
 */
export function abnormalFlag(value: number | string, low: number | null, high: number | null): AbnormalFlag | null {
  if (typeof value !== 'number') return null;
  const width = low !== null && high !== null ? high - low : null;
  if (high !== null && value > high) return value > (width !== null && width > 0 ? high + width : high * 2) ? 'HH' : 'H';
  if (low !== null && value < low) return value < (width !== null && width > 0 ? low - width : low / 2) ? 'LL' : 'L';
  return null;
}

/** SPEC §9 (as for vital signs): the dashboard lists the latest results, abnormal ones flagged. */
export const RECENT_RESULTS = 5;
const CRITICAL_FLAGS: readonly (AbnormalFlag | null)[] = ['LL', 'HH'];

type Result = {
  id: number;
  name: string;
  code: string | null;
  value: number | string;
  unit: string | null;
  collectedDate: string;
  abnormalFlag: AbnormalFlag | null;
};
const latestFirst = <R extends Result>(rows: readonly R[]): R[] =>
  [...rows].sort((a, b) => b.collectedDate.localeCompare(a.collectedDate) || b.id - a.id);

/** A critical alert for each test whose latest result is critically low or high (LL, HH): its name, value and flag. */
export function criticalResultAlerts(rows: readonly Result[]): DashboardAlert[] {
  const latest = new Map<string, Result>();
  for (const r of latestFirst(rows)) {
    const test = r.code ?? r.name.trim().toLowerCase();
    if (!latest.has(test)) latest.set(test, r);
  }
  return [...latest.values()]
    .filter((r) => CRITICAL_FLAGS.includes(r.abnormalFlag))
    .map((r) => ({
      key: 'criticalResult',
      params: { name: r.name, value: r.unit ? `${r.value} ${r.unit}` : String(r.value), flag: r.abnormalFlag! },
    }));
}

/**
 * A laboratory report (FHIR DiagnosticReport, decision 049): the results it groups, in its order, and its own test
 * (words and codings as sent), status, date, performer and conclusion. Kept on each of its results; the first result
 * names it (DiagnosticReport/report-<first result id>).
 */
export const labReportShape = z.object({
  results: z.array(z.number().int()),
  name: z.string(),
  codings: z.array(z.object({ system: z.string(), code: z.string(), display: z.string().optional() })).nullable(),
  status: z.string(),
  effectiveDate: day,
  performer: z.string().nullable(),
  conclusion: z.string().nullable(),
});
export type LabReport = z.infer<typeof labReportShape>;

/** The most results one report groups. */
export const LAB_REPORT_MAX_RESULTS = 50;

/** A report's own fields as a FHIR client sends them (its results are checked against the record itself). */
export const labReportInput = (now: Now) =>
  z.strictObject({
    name: requiredText(200, 'validation:labTestRequired').min(2, { error: 'validation:labTestLength' }),
    codings: codingsInput,
    status: choice(LAB_RESULT_STATUSES, 'validation:statusRequired'),
    effectiveDate: requiredDate(now, 'validation:dateRequired', 'past'),
    performer: textOrNull(200),
    conclusion: textOrNull(2000),
  });

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  ...versionedRowShape,
  name: z.string(),
  ...codedRowShape,
  value: z.union([z.number(), z.string()]),
  unit: z.string().nullable(),
  referenceLow: z.number().nullable(),
  referenceHigh: z.number().nullable(),
  collectedDate: day,
  status: z.string(),
  facility: z.string(),
  abnormalFlag: z.enum(ABNORMAL_FLAGS).nullable(),
  /** The name of the staff user who entered the result, and when (ISO 8601 UTC). */
  enteredBy: z.string(),
  enteredAt: z.string(),
  /** The report the result belongs to (sent through FHIR); null (or absent) when none. */
  report: labReportShape.nullable().optional(),
});

export const labResults = defineKind({
  kind: 'lab-results',
  resourceType: 'LAB_RESULT',
  notFound: 'Laboratory result not found',
  input,
  row,
  order: ['collectedDate', 'id'],
  coded: { field: 'name', systems: [LOINC_SYSTEM] },
  portal: { row: row.omit({ patientId: true, ...PORTAL_HIDDEN }), from: ({ patientId: _p, ...r }) => r },
  dashboard: {
    alerts: criticalResultAlerts,
    panels: [{ panel: 'recentResults', empty: 'noResults', position: 5, rows: (rows) => latestFirst(rows).slice(0, RECENT_RESULTS) }],
  },
});
export type LabResultRow = z.infer<typeof row>;
