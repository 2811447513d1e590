// The Medical Dashboard's numbers (SPEC §2, §9), as pure functions of the record and `today` (YYYY-MM-DD), so they
// can be tested with a fixed clock and computed the same way wherever they are shown.
import type { AllergyRow, AppointmentRow, DiagnosisRow, MedicationRow, VitalsRow } from './kinds';
import { addDays, ageOn } from './calendar';

/** SPEC §9 windows and list sizes. */
export const DASHBOARD_LIMITS = {
  recentDays: 30,
  upcomingDays: 30,
  recentVisits: 3,
  upcomingAppointments: 4,
  safetyAllergies: 3,
  safetyMedications: 3,
} as const;

/** SPEC §9 critical thresholds: strictly above (or, for low temperature, strictly below) these. */
export const CRITICAL_THRESHOLDS = {
  systolicAbove: 180,
  diastolicAbove: 120,
  temperatureAbove: 39.5,
  temperatureBelow: 35,
} as const;

/** i18n keys (record namespace) of the critical alerts, in the order shown. */
export type CriticalAlert = 'hypertensiveCrisis' | 'dangerousTemperature';

export interface DashboardInput {
  dateOfBirth?: string | null;
  diagnoses: readonly DiagnosisRow[];
  appointments: readonly AppointmentRow[];
  allergies: readonly AllergyRow[];
  medications: readonly MedicationRow[];
  vitals: readonly VitalsRow[];
}

export interface MedicalDashboard {
  age: number | null;
  counters: { activeConditions: number; currentMedications: number; recentVisits: number; allergies: number };
  /** Up to 3 visits of the last 30 days, newest first. */
  recentActivity: AppointmentRow[];
  /** Up to 4 scheduled appointments of the next 30 days, soonest first. */
  upcomingAppointments: AppointmentRow[];
  /** Up to 3 allergies, most severe first. */
  criticalAllergies: AllergyRow[];
  /** Up to 3 active medications, most recently prescribed first. */
  safetyMedications: MedicationRow[];
  alerts: CriticalAlert[];
}

const SEVERITY_RANK: Record<string, number> = { Severe: 0, Moderate: 1, Mild: 2 };
const byDateTime = (a: AppointmentRow, b: AppointmentRow): number =>
  a.date.localeCompare(b.date) || (a.time ?? '99:99').localeCompare(b.time ?? '99:99') || a.id - b.id;

/** A diagnosis still being treated: Active, or Chronic (a chronic condition is an active one). */
export const isActiveCondition = (d: Pick<DiagnosisRow, 'status'>): boolean => d.status === 'Active' || d.status === 'Chronic';
export const isCurrentMedication = (m: Pick<MedicationRow, 'status'>): boolean => m.status === 'Active';

/** Visits of the last 30 days: dated from today minus 30 days to today, inclusive, and not cancelled. */
export function recentVisits(appointments: readonly AppointmentRow[], today: string): AppointmentRow[] {
  const from = addDays(today, -DASHBOARD_LIMITS.recentDays);
  return appointments.filter((a) => a.date >= from && a.date <= today && a.status !== 'Cancelled').sort((a, b) => byDateTime(b, a));
}

/** Scheduled appointments of the next 30 days: dated from today to today plus 30 days, inclusive. */
export function upcomingAppointments(appointments: readonly AppointmentRow[], today: string): AppointmentRow[] {
  const to = addDays(today, DASHBOARD_LIMITS.upcomingDays);
  return appointments.filter((a) => a.date >= today && a.date <= to && a.status === 'Scheduled').sort(byDateTime);
}

/** The most recent value of each measure (a reading may hold only some of them). */
function latestValues(vitals: readonly VitalsRow[]): { systolic: number | null; diastolic: number | null; temperature: number | null } {
  const newestFirst = [...vitals].sort((a, b) => b.recordedAt.localeCompare(a.recordedAt) || b.id - a.id);
  const bp = newestFirst.find((v) => v.systolic !== null && v.diastolic !== null);
  const temp = newestFirst.find((v) => v.temperature !== null);
  return { systolic: bp?.systolic ?? null, diastolic: bp?.diastolic ?? null, temperature: temp?.temperature ?? null };
}

/** SPEC §9: systolic above 180 or diastolic above 120; temperature above 39.5 °C or below 35 °C (latest readings). */
export function criticalAlerts(vitals: readonly VitalsRow[]): CriticalAlert[] {
  const v = latestValues(vitals);
  const alerts: CriticalAlert[] = [];
  const t = CRITICAL_THRESHOLDS;
  if ((v.systolic !== null && v.systolic > t.systolicAbove) || (v.diastolic !== null && v.diastolic > t.diastolicAbove)) {
    alerts.push('hypertensiveCrisis');
  }
  if (v.temperature !== null && (v.temperature > t.temperatureAbove || v.temperature < t.temperatureBelow)) {
    alerts.push('dangerousTemperature');
  }
  return alerts;
}

export function medicalDashboard(record: DashboardInput, today: string): MedicalDashboard {
  const recent = recentVisits(record.appointments, today);
  const activeMedications = record.medications
    .filter(isCurrentMedication)
    .sort((a, b) => b.prescribedDate.localeCompare(a.prescribedDate) || b.id - a.id);
  const allergies = [...record.allergies].sort(
    (a, b) => (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3) || b.reportedDate.localeCompare(a.reportedDate),
  );
  return {
    age: ageOn(record.dateOfBirth ?? null, today),
    counters: {
      activeConditions: record.diagnoses.filter(isActiveCondition).length,
      currentMedications: activeMedications.length,
      recentVisits: recent.length,
      allergies: record.allergies.length,
    },
    recentActivity: recent.slice(0, DASHBOARD_LIMITS.recentVisits),
    upcomingAppointments: upcomingAppointments(record.appointments, today).slice(0, DASHBOARD_LIMITS.upcomingAppointments),
    criticalAllergies: allergies.slice(0, DASHBOARD_LIMITS.safetyAllergies),
    safetyMedications: activeMedications.slice(0, DASHBOARD_LIMITS.safetyMedications),
    alerts: criticalAlerts(record.vitals),
  };
}
