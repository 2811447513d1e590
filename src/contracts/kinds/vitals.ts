// Vital signs (DESIGN.md §9): blood pressure as both numbers or neither, at least one measure; recorded by the
// signed-in user, now unless the reading is dated. The source of the dashboard's critical alerts.
import { z } from 'zod';
import { versionedRowShape } from './versioned';
import { DATE_WINDOW_YEARS, addYears, todayIso } from '../calendar';
import { measure, type Now } from './fields';
import { defineKind, type DashboardAlert } from './kind-contract';

/** The measures' ranges (SPEC §5 "defined but unused" limits, enforced here). */
export const VITALS_LIMITS = {
  systolic: { min: 50, max: 300 },
  diastolic: { min: 30, max: 200 },
  temperature: { min: 30, max: 45 },
  weight: { min: 0.5, max: 500 },
} as const;
const L = VITALS_LIMITS;

const input = (now: Now) =>
  z
    .strictObject({
      systolic: measure(L.systolic.min, L.systolic.max, 'validation:systolicRange', true),
      diastolic: measure(L.diastolic.min, L.diastolic.max, 'validation:diastolicRange', true),
      temperature: measure(L.temperature.min, L.temperature.max, 'validation:temperatureRange', false),
      weight: measure(L.weight.min, L.weight.max, 'validation:weightRange', false),
      /** When it was measured (ISO 8601); the server's clock when absent. Not in the future, within 100 years. */
      recordedAt: z.iso
        .datetime({ offset: true, error: 'validation:recordedAtInvalid', abort: true })
        .nullish()
        .refine((v) => !v || !(Date.parse(v) > now().getTime() + 5 * 60_000), { error: 'validation:dateFuture' })
        .refine((v) => !v || Number.isNaN(Date.parse(v)) || todayIso(new Date(v)) >= addYears(todayIso(now()), -DATE_WINDOW_YEARS), {
          error: 'validation:dateTooOld',
        })
        .transform((v) => v ?? null),
    })
    .refine((v) => (v.systolic === null) === (v.diastolic === null), { error: 'validation:bloodPressureBoth', path: ['systolic'] })
    .refine((v) => v.systolic === null || v.diastolic === null || v.diastolic < v.systolic, {
      error: 'validation:diastolicBelowSystolic',
      path: ['diastolic'],
    })
    .refine((v) => v.systolic !== null || v.temperature !== null || v.weight !== null || v.diastolic !== null, {
      error: 'validation:vitalsEmpty',
      path: ['systolic'],
    });

/** SPEC §9 critical thresholds: strictly above (or, for low temperature, strictly below) these. */
export const CRITICAL_THRESHOLDS = {
  systolicAbove: 180,
  diastolicAbove: 120,
  temperatureAbove: 39.5,
  temperatureBelow: 35,
} as const;

type Reading = { id: number; recordedAt: string; systolic: number | null; diastolic: number | null; temperature: number | null };
const newestFirst = <R extends Reading>(vitals: readonly R[]): R[] =>
  [...vitals].sort((a, b) => b.recordedAt.localeCompare(a.recordedAt) || b.id - a.id);

/** SPEC §9: systolic above 180 or diastolic above 120; temperature above 39.5 °C or below 35 °C (latest readings of each). */
export function criticalAlerts(vitals: readonly Reading[]): DashboardAlert[] {
  const sorted = newestFirst(vitals);
  const bp = sorted.find((v) => v.systolic !== null && v.diastolic !== null);
  const temperature = sorted.find((v) => v.temperature !== null)?.temperature ?? null;
  const t = CRITICAL_THRESHOLDS;
  const alerts: DashboardAlert[] = [];
  if (bp && (bp.systolic! > t.systolicAbove || bp.diastolic! > t.diastolicAbove)) alerts.push({ key: 'hypertensiveCrisis' });
  if (temperature !== null && (temperature > t.temperatureAbove || temperature < t.temperatureBelow))
    alerts.push({ key: 'dangerousTemperature' });
  return alerts;
}

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  ...versionedRowShape,
  systolic: z.number().int().nullable(),
  diastolic: z.number().int().nullable(),
  /** °C, one decimal. */
  temperature: z.number().nullable(),
  /** kg, one decimal. */
  weight: z.number().nullable(),
  recordedAt: z.string(),
  /** The name of the staff user who recorded them. */
  recordedBy: z.string(),
});

export const vitals = defineKind({
  kind: 'vitals',
  resourceType: 'VITALS',
  notFound: 'Vital signs not found',
  input,
  row,
  order: ['recordedAt', 'id'],
  coded: null,
  portal: null, // SPEC §3: the portal shows the five lists, not vital signs
  dashboard: {
    alerts: criticalAlerts,
    panels: [{ panel: 'latestVitals', empty: 'noVitals', position: 4, rows: (rows) => newestFirst(rows).slice(0, 1) }],
  },
});
export type VitalsRow = z.infer<typeof row>;
