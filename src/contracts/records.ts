// The clinical record's add inputs (SPEC §3, §4, §5, §7; DESIGN.md §9): one schema for the add dialogs and the routes.
// Messages are i18n keys. Schemas are built from a clock (`now`) so the server's injectable clock decides what
// "in the future" means; the client builds them with the real clock.
import { z } from 'zod';
import { safeString, textOrNull } from './fields';
import { DATE_WINDOW_YEARS, addYears, isIsoDate, todayIso } from './calendar';

export const DIAGNOSIS_STATUSES = ['Active', 'Resolved', 'Chronic'] as const;
export const APPOINTMENT_STATUSES = ['Scheduled', 'Completed', 'Cancelled'] as const;
export const ALLERGY_SEVERITIES = ['Mild', 'Moderate', 'Severe'] as const;
export const MEDICATION_STATUSES = ['Active', 'Discontinued', 'Completed'] as const;
export type DiagnosisStatus = (typeof DIAGNOSIS_STATUSES)[number];
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];
export type MedicationStatus = (typeof MEDICATION_STATUSES)[number];

/** SPEC §5 "defined but unused" limits, enforced here. */
export const RECORD_LIMITS = {
  condition: { min: 2, max: 200 },
  medicationName: { min: 2, max: 100 },
  dosage: { min: 1, max: 50 },
  systolic: { min: 50, max: 300 },
  diastolic: { min: 30, max: 200 },
  temperature: { min: 30, max: 45 },
  weight: { min: 0.5, max: 500 },
} as const;

/** Letters (any script), digits, whitespace and - ( ) / . only. */
export const CONDITION_PATTERN = /^[\p{L}\p{M}\p{N}\s\-()/.]+$/u;
/** HH:mm, 24-hour clock. */
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

type Now = () => Date;
const tooLong = { error: 'validation:tooLong' };
const dateInvalid = 'validation:dateInvalid';

const requiredText = (max: number, missing: string) => safeString(missing).trim().min(1, { error: missing, abort: true }).max(max, tooLong);

/** A required choice: missing gives the SPEC message, anything else outside the list 'invalidChoice'. */
const choice = <T extends readonly [string, ...string[]]>(values: T, missing: string) =>
  z.enum(values, {
    error: (issue) =>
      issue.input === undefined || (typeof issue.input === 'string' && issue.input.trim() === '') ? missing : 'validation:invalidChoice',
  });

/** Where a date may fall: 'past' records something that happened (not in the future); 'any' may be ahead too. */
type DateWindow = 'past' | 'any';

function dateChecks(now: Now, window: DateWindow) {
  const today = (): string => todayIso(now());
  return {
    notFuture: (v: string | null | undefined) => window === 'any' || !v || v <= today(),
    notTooOld: (v: string | null | undefined) => !v || v >= addYears(today(), -DATE_WINDOW_YEARS),
    notTooFar: (v: string | null | undefined) => !v || v <= addYears(today(), DATE_WINDOW_YEARS),
  };
}

/** A required YYYY-MM-DD date within the last 100 years (and not in the future for 'past'; within 100 years ahead for 'any'). */
function requiredDate(now: Now, missing: string, window: DateWindow) {
  const c = dateChecks(now, window);
  return z
    .string({ error: missing })
    .trim()
    .min(1, { error: missing, abort: true })
    .refine(isIsoDate, { error: dateInvalid, abort: true })
    .refine(c.notFuture, { error: 'validation:dateFuture' })
    .refine(c.notTooOld, { error: 'validation:dateTooOld' })
    .refine(c.notTooFar, { error: 'validation:dateTooFar' });
}

/** An optional date: missing, null or '' is null. */
function optionalDate(now: Now, window: DateWindow) {
  const c = dateChecks(now, window);
  return z
    .string({ error: dateInvalid })
    .trim()
    .nullish()
    .refine((v) => !v || isIsoDate(v), { error: dateInvalid, abort: true })
    .refine(c.notFuture, { error: 'validation:dateFuture' })
    .refine(c.notTooOld, { error: 'validation:dateTooOld' })
    .refine(c.notTooFar, { error: 'validation:dateTooFar' })
    .transform((v) => (v ? v : null));
}

const notBefore = (later: string | null, earlier: string): boolean => !later || later >= earlier;

const diagnosisSchema = (now: Now) =>
  z
    .strictObject({
      condition: requiredText(RECORD_LIMITS.condition.max, 'validation:conditionRequired')
        .min(RECORD_LIMITS.condition.min, { error: 'validation:conditionLength' })
        .regex(CONDITION_PATTERN, { error: 'validation:conditionCharacters' }),
      status: choice(DIAGNOSIS_STATUSES, 'validation:statusRequired'),
      diagnosedDate: requiredDate(now, 'validation:dateRequired', 'past'),
      resolvedDate: optionalDate(now, 'past'),
      description: textOrNull(2000),
      doctor: requiredText(200, 'validation:doctorRequired'),
      facility: requiredText(200, 'validation:facilityRequired'),
    })
    .refine((v) => notBefore(v.resolvedDate, v.diagnosedDate), { error: 'validation:resolvedBeforeDiagnosed', path: ['resolvedDate'] });

const appointmentSchema = (now: Now) =>
  z.strictObject({
    type: requiredText(200, 'validation:typeRequired'),
    date: requiredDate(now, 'validation:dateRequired', 'any'),
    /** DESIGN.md §9: appointments carry a time too (HH:mm), optional. */
    time: z
      .string({ error: 'validation:timeInvalid' })
      .trim()
      .nullish()
      .refine((v) => !v || TIME_PATTERN.test(v), { error: 'validation:timeInvalid' })
      .transform((v) => (v ? v : null)),
    status: choice(APPOINTMENT_STATUSES, 'validation:statusRequired'),
    doctor: requiredText(200, 'validation:doctorRequired'),
    facility: requiredText(200, 'validation:facilityRequired'),
    findings: textOrNull(2000),
  });

const allergySchema = (now: Now) =>
  z.strictObject({
    allergen: requiredText(200, 'validation:allergenRequired'),
    reaction: requiredText(500, 'validation:reactionRequired'),
    severity: choice(ALLERGY_SEVERITIES, 'validation:severityRequired'),
    reportedDate: requiredDate(now, 'validation:dateRequired', 'past'),
  });

const medicationSchema = (now: Now) =>
  z
    .strictObject({
      name: requiredText(RECORD_LIMITS.medicationName.max, 'validation:medicationNameRequired').min(RECORD_LIMITS.medicationName.min, {
        error: 'validation:medicationNameLength',
      }),
      status: choice(MEDICATION_STATUSES, 'validation:statusRequired'),
      dosage: requiredText(RECORD_LIMITS.dosage.max, 'validation:dosageRequired'),
      frequency: requiredText(100, 'validation:frequencyRequired'),
      purpose: requiredText(200, 'validation:purposeRequired'),
      prescribedDate: requiredDate(now, 'validation:prescribedDateRequired', 'past'),
      discontinuedDate: optionalDate(now, 'past'),
      prescribedBy: requiredText(200, 'validation:prescribedByRequired'),
      nextReview: optionalDate(now, 'any'),
    })
    .refine((v) => notBefore(v.discontinuedDate, v.prescribedDate), {
      error: 'validation:discontinuedBeforePrescribed',
      path: ['discontinuedDate'],
    });

const vaccineSchema = (now: Now) =>
  z.strictObject({
    vaccine: requiredText(200, 'validation:vaccineNameRequired'),
    date: requiredDate(now, 'validation:dateRequired', 'past'),
    dose: requiredText(50, 'validation:doseRequired'),
    facility: requiredText(200, 'validation:facilityRequired'),
    nextDue: optionalDate(now, 'any'),
    batchNumber: textOrNull(64),
  });

const measure = (min: number, max: number, message: string, integer: boolean) => {
  const n = z.number({ error: message }).min(min, { error: message }).max(max, { error: message });
  return (integer ? n.int({ error: message }) : n).nullish().transform((v) => v ?? null);
};
const L = RECORD_LIMITS;

/** Vital signs (DESIGN.md §9): blood pressure as both numbers or neither, at least one measure. */
const vitalsSchema = (now: Now) =>
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
    .refine((v) => (v.systolic === null) === (v.diastolic === null), {
      error: 'validation:bloodPressureBoth',
      path: ['systolic'],
    })
    .refine((v) => v.systolic === null || v.diastolic === null || v.diastolic < v.systolic, {
      error: 'validation:diastolicBelowSystolic',
      path: ['diastolic'],
    })
    .refine((v) => v.systolic !== null || v.temperature !== null || v.weight !== null || v.diastolic !== null, {
      error: 'validation:vitalsEmpty',
      path: ['systolic'],
    });

export interface RecordInputSchemas {
  diagnoses: ReturnType<typeof diagnosisSchema>;
  appointments: ReturnType<typeof appointmentSchema>;
  allergies: ReturnType<typeof allergySchema>;
  medications: ReturnType<typeof medicationSchema>;
  vaccines: ReturnType<typeof vaccineSchema>;
  vitals: ReturnType<typeof vitalsSchema>;
}

/** The add schemas of SPEC §5 (and vital signs), judged against `now` (the server passes its clock). */
export function recordInputs(now: Now = () => new Date()): RecordInputSchemas {
  return {
    diagnoses: diagnosisSchema(now),
    appointments: appointmentSchema(now),
    allergies: allergySchema(now),
    medications: medicationSchema(now),
    vaccines: vaccineSchema(now),
    vitals: vitalsSchema(now),
  };
}

export type DiagnosisInput = z.input<RecordInputSchemas['diagnoses']>;
export type AppointmentInput = z.input<RecordInputSchemas['appointments']>;
export type AllergyInput = z.input<RecordInputSchemas['allergies']>;
export type MedicationInput = z.input<RecordInputSchemas['medications']>;
export type VaccineInput = z.input<RecordInputSchemas['vaccines']>;
export type VitalsInput = z.input<RecordInputSchemas['vitals']>;
export type NewDiagnosis = z.output<RecordInputSchemas['diagnoses']>;
export type NewAppointment = z.output<RecordInputSchemas['appointments']>;
export type NewAllergy = z.output<RecordInputSchemas['allergies']>;
export type NewMedication = z.output<RecordInputSchemas['medications']>;
export type NewVaccine = z.output<RecordInputSchemas['vaccines']>;
export type NewVitals = z.output<RecordInputSchemas['vitals']>;
