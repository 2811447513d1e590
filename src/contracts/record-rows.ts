// What the record endpoints return (SPEC §3 fields; DESIGN.md §9 appointment time and vital signs).
// Dates are YYYY-MM-DD, timestamps ISO 8601 UTC; optional values are null.
import { z } from 'zod';
import type { AuditResourceType } from './audit';
import { recordPatient } from './access';

export const diagnosisRow = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  condition: z.string(),
  status: z.string(),
  diagnosedDate: z.string(),
  resolvedDate: z.string().nullable(),
  description: z.string().nullable(),
  doctor: z.string(),
  facility: z.string(),
});

export const appointmentRow = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  type: z.string(),
  date: z.string(),
  time: z.string().nullable(),
  findings: z.string().nullable(),
  status: z.string(),
  doctor: z.string(),
  facility: z.string(),
});

export const allergyRow = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  allergen: z.string(),
  reaction: z.string(),
  severity: z.string(),
  reportedDate: z.string(),
});

export const medicationRow = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  name: z.string(),
  dosage: z.string(),
  frequency: z.string(),
  purpose: z.string(),
  status: z.string(),
  prescribedDate: z.string(),
  discontinuedDate: z.string().nullable(),
  prescribedBy: z.string(),
  nextReview: z.string().nullable(),
});

export const vaccineRow = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  vaccine: z.string(),
  date: z.string(),
  dose: z.string(),
  facility: z.string(),
  nextDue: z.string().nullable(),
  batchNumber: z.string().nullable(),
});

export const vitalsRow = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
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

export type DiagnosisRow = z.infer<typeof diagnosisRow>;
export type AppointmentRow = z.infer<typeof appointmentRow>;
export type AllergyRow = z.infer<typeof allergyRow>;
export type MedicationRow = z.infer<typeof medicationRow>;
export type VaccineRow = z.infer<typeof vaccineRow>;
export type VitalsRow = z.infer<typeof vitalsRow>;

/** The five SPEC lists, then vital signs: the path segment of each (GET/POST /api/patients/{id}/<kind>). */
export const RECORD_LIST_KINDS = ['diagnoses', 'appointments', 'allergies', 'medications', 'vaccines'] as const;
export const RECORD_KINDS = [...RECORD_LIST_KINDS, 'vitals'] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

export const RECORD_ROW_SCHEMAS = {
  diagnoses: diagnosisRow,
  appointments: appointmentRow,
  allergies: allergyRow,
  medications: medicationRow,
  vaccines: vaccineRow,
  vitals: vitalsRow,
} as const;

export interface RecordRows {
  diagnoses: DiagnosisRow;
  appointments: AppointmentRow;
  allergies: AllergyRow;
  medications: MedicationRow;
  vaccines: VaccineRow;
  vitals: VitalsRow;
}

/** The audit resource type of each kind (SPEC §9, plus VITALS). */
export const RECORD_RESOURCE_TYPES: Record<RecordKind, AuditResourceType> = {
  diagnoses: 'DIAGNOSIS',
  appointments: 'APPOINTMENT',
  allergies: 'ALLERGY',
  medications: 'MEDICATION',
  vaccines: 'VACCINE',
  vitals: 'VITALS',
};

/** GET /api/patients/{id}/record-summary: the whole record in one request (the dashboard's data). */
export const recordSummary = z.object({
  patient: recordPatient,
  diagnoses: z.array(diagnosisRow),
  appointments: z.array(appointmentRow),
  allergies: z.array(allergyRow),
  medications: z.array(medicationRow),
  vaccines: z.array(vaccineRow),
  vitals: z.array(vitalsRow),
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
