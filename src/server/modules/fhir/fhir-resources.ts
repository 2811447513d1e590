// Our records as FHIR R4 resources (issue 14). Only what the record holds is said: free text goes in `text` of a
// CodeableConcept (no invented codes), people we know only by name are references with a `display`, and the
// identifiers and code systems are named once here.
import type { PatientDetails, PatientSummary } from '../../../contracts/patients';
import type { AllergyRow, AppointmentRow, DiagnosisRow, MedicationRow, VaccineRow, VitalsRow } from '../../../contracts/record-rows';

/** The NC number's identifier system (documented in README: FHIR API). */
export const NC_NUMBER_SYSTEM = 'https://nhr.health.gov.na/fhir/sid/nc-number';
/** Appointment times are Namibian local time (UTC+2, no daylight saving). */
export const LOCAL_OFFSET = '+02:00';
const LOINC = 'http://loinc.org';
const UCUM = 'http://unitsofmeasure.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

/** A FHIR resource as JSON: its type, id and fields. */
export interface FhirResource {
  resourceType: string;
  id?: string;
  [field: string]: unknown;
}

export const patientReference = (patientId: number) => ({ reference: `Patient/${patientId}` });
const named = (display: string) => ({ display });
const text = (value: string) => ({ text: value });
const coding = (system: string, code: string, display?: string) => ({ coding: [{ system, code, ...(display ? { display } : {}) }] });

const GENDER: Record<string, string> = { Male: 'male', Female: 'female', Other: 'other' };

export function patientResource(p: PatientSummary | PatientDetails): FhirResource {
  const details = 'nextOfKin' in p ? p : null;
  return {
    resourceType: 'Patient',
    id: String(p.id),
    identifier: [{ use: 'official', system: NC_NUMBER_SYSTEM, value: p.idNumber }],
    name: [{ use: 'official', family: p.lastName, given: [p.firstName] }],
    gender: GENDER[p.sex] ?? 'unknown',
    ...(p.dateOfBirth ? { birthDate: p.dateOfBirth } : {}),
    ...(p.address.trim() ? { address: [{ text: p.address }] } : {}),
    ...(details?.contactNumber ? { telecom: [{ system: 'phone', value: details.contactNumber }] } : {}),
    ...(details?.nextOfKin.trim()
      ? {
          contact: [
            {
              relationship: [coding('http://terminology.hl7.org/CodeSystem/v2-0131', 'N', 'Next-of-Kin')],
              name: { text: details.nextOfKin },
              ...(details.nextOfKinContact.trim() ? { telecom: [{ system: 'phone', value: details.nextOfKinContact }] } : {}),
            },
          ],
        }
      : {}),
  };
}

const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
export const CONDITION_STATUS: Record<string, string> = { Active: 'active', Chronic: 'active', Resolved: 'resolved' };

export function conditionResource(d: DiagnosisRow): FhirResource {
  const resolved = d.status === 'Resolved';
  return {
    resourceType: 'Condition',
    id: String(d.id),
    clinicalStatus: coding(CONDITION_CLINICAL, CONDITION_STATUS[d.status] ?? 'active'),
    verificationStatus: coding('http://terminology.hl7.org/CodeSystem/condition-ver-status', 'confirmed'),
    category: [coding('http://terminology.hl7.org/CodeSystem/condition-category', 'problem-list-item')],
    code: text(d.condition),
    subject: patientReference(d.patientId),
    onsetDateTime: d.diagnosedDate,
    ...(resolved && d.resolvedDate ? { abatementDateTime: d.resolvedDate } : {}),
    recordedDate: d.diagnosedDate,
    asserter: named(d.doctor),
    note: [
      {
        text: [d.status === 'Chronic' ? 'Chronic condition.' : '', d.description ?? '', `Facility: ${d.facility}`]
          .filter(Boolean)
          .join(' '),
      },
    ],
  };
}

const SEVERITY: Record<string, string> = { Mild: 'mild', Moderate: 'moderate', Severe: 'severe' };

export function allergyResource(a: AllergyRow): FhirResource {
  return {
    resourceType: 'AllergyIntolerance',
    id: String(a.id),
    clinicalStatus: coding('http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', 'active'),
    verificationStatus: coding('http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', 'confirmed'),
    criticality: a.severity === 'Severe' ? 'high' : 'low',
    code: text(a.allergen),
    patient: patientReference(a.patientId),
    recordedDate: a.reportedDate,
    reaction: [{ manifestation: [text(a.reaction)], severity: SEVERITY[a.severity] ?? 'moderate' }],
  };
}

export const MEDICATION_STATUS: Record<string, string> = { Active: 'active', Discontinued: 'stopped', Completed: 'completed' };

export function medicationResource(m: MedicationRow): FhirResource {
  return {
    resourceType: 'MedicationStatement',
    id: String(m.id),
    status: MEDICATION_STATUS[m.status] ?? 'unknown',
    medicationCodeableConcept: text(m.name),
    subject: patientReference(m.patientId),
    effectivePeriod: { start: m.prescribedDate, ...(m.discontinuedDate ? { end: m.discontinuedDate } : {}) },
    dateAsserted: m.prescribedDate,
    informationSource: named(m.prescribedBy),
    reasonCode: [text(m.purpose)],
    dosage: [{ text: `${m.dosage}, ${m.frequency}` }],
    ...(m.nextReview ? { note: [{ text: `Next review: ${m.nextReview}` }] } : {}),
  };
}

export function immunizationResource(v: VaccineRow): FhirResource {
  return {
    resourceType: 'Immunization',
    id: String(v.id),
    status: 'completed',
    vaccineCode: text(v.vaccine),
    patient: patientReference(v.patientId),
    occurrenceDateTime: v.date,
    primarySource: true,
    location: named(v.facility),
    ...(v.batchNumber ? { lotNumber: v.batchNumber } : {}),
    protocolApplied: [{ doseNumberString: v.dose }],
    ...(v.nextDue ? { note: [{ text: `Next dose due: ${v.nextDue}` }] } : {}),
  };
}

export const APPOINTMENT_STATUS: Record<string, string> = { Scheduled: 'booked', Completed: 'fulfilled', Cancelled: 'cancelled' };

/** An appointment with a time starts (and, as far as we know, ends) then; one without a time spans its day. */
export function appointmentResource(a: AppointmentRow): FhirResource {
  const start = a.time ? `${a.date}T${a.time.slice(0, 5)}:00${LOCAL_OFFSET}` : `${a.date}T00:00:00${LOCAL_OFFSET}`;
  const end = a.time ? start : `${a.date}T23:59:59${LOCAL_OFFSET}`;
  return {
    resourceType: 'Appointment',
    id: String(a.id),
    status: APPOINTMENT_STATUS[a.status] ?? 'booked',
    serviceType: [text(a.type)],
    description: a.type,
    start,
    end,
    ...(a.findings ? { comment: a.findings } : {}),
    participant: [
      { actor: patientReference(a.patientId), status: 'accepted' },
      { actor: named(a.doctor), status: 'accepted' },
      { actor: { display: a.facility }, status: 'accepted' },
    ],
  };
}

/** The LOINC codes of the vital signs we record (FHIR vital signs profile). */
export const VITALS_LOINC = {
  bloodPressure: { code: '85354-9', display: 'Blood pressure panel with all children optional' },
  systolic: { code: '8480-6', display: 'Systolic blood pressure' },
  diastolic: { code: '8462-4', display: 'Diastolic blood pressure' },
  temperature: { code: '8310-5', display: 'Body temperature' },
  weight: { code: '29463-7', display: 'Body weight' },
} as const;
export const VITAL_SIGNS_PROFILES = {
  bp: 'http://hl7.org/fhir/StructureDefinition/bp',
  temperature: 'http://hl7.org/fhir/StructureDefinition/bodytemp',
  weight: 'http://hl7.org/fhir/StructureDefinition/bodyweight',
} as const;

/** The parts of one reading: an Observation id is `<vitals id>-<part>`. */
export const VITALS_PARTS = ['bp', 'temperature', 'weight'] as const;
export type VitalsPart = (typeof VITALS_PARTS)[number];

const loinc = (c: { code: string; display: string }) => ({
  coding: [{ system: LOINC, code: c.code, display: c.display }],
  text: c.display,
});
const quantity = (value: number, unit: string, code: string) => ({ value, unit, system: UCUM, code });

/** One reading of vital signs as up to three Observations (blood pressure panel, temperature, weight). */
export function vitalsObservations(v: VitalsRow): FhirResource[] {
  const base = (part: VitalsPart, profile: string) => ({
    resourceType: 'Observation',
    id: `${v.id}-${part}`,
    meta: { profile: [profile] },
    status: 'final',
    category: [{ ...coding(OBSERVATION_CATEGORY, 'vital-signs', 'Vital Signs'), text: 'Vital Signs' }],
    subject: patientReference(v.patientId),
    effectiveDateTime: v.recordedAt,
    performer: [named(v.recordedBy)],
  });
  const out: FhirResource[] = [];
  if (v.systolic !== null || v.diastolic !== null) {
    const component = (c: { code: string; display: string }, value: number | null) =>
      value === null
        ? { code: loinc(c), dataAbsentReason: coding('http://terminology.hl7.org/CodeSystem/data-absent-reason', 'not-performed') }
        : { code: loinc(c), valueQuantity: quantity(value, 'mmHg', 'mm[Hg]') };
    out.push({
      ...base('bp', VITAL_SIGNS_PROFILES.bp),
      code: loinc(VITALS_LOINC.bloodPressure),
      component: [component(VITALS_LOINC.systolic, v.systolic), component(VITALS_LOINC.diastolic, v.diastolic)],
    });
  }
  if (v.temperature !== null) {
    out.push({
      ...base('temperature', VITAL_SIGNS_PROFILES.temperature),
      code: loinc(VITALS_LOINC.temperature),
      valueQuantity: quantity(v.temperature, 'C', 'Cel'),
    });
  }
  if (v.weight !== null) {
    out.push({
      ...base('weight', VITAL_SIGNS_PROFILES.weight),
      code: loinc(VITALS_LOINC.weight),
      valueQuantity: quantity(v.weight, 'kg', 'kg'),
    });
  }
  return out;
}
