// Creates of the FHIR API (issue 14 item 3): a Condition, AllergyIntolerance, MedicationStatement, Immunization or a
// vital-signs Observation becomes the same record input the staff screens send, checked by the same schema
// (contracts/records.ts) and added through the records module: the same permission, grant check and CREATE audit row.
// What FHIR does not carry (the facility, the clinician's name) comes from the signed-in user, as on the screens.
import { recordInputs } from '../../../contracts/records';
import type { RecordKind, RecordRows } from '../../../contracts/record-rows';
import { staffDisplayName } from '../../context/actor';
import { validationFailed } from '../../errors/app-error';
import { addRecordItem, type NewRecordItem } from '../records/records.service';
import {
  allergyResource,
  conditionResource,
  immunizationResource,
  medicationResource,
  VITALS_LOINC,
  vitalsObservations,
  type FhirResource,
} from './fhir-resources';
import type { FhirScope } from './fhir-read.service';

export const CREATABLE_TYPES = ['Condition', 'AllergyIntolerance', 'MedicationStatement', 'Immunization', 'Observation'] as const;
export type CreatableType = (typeof CREATABLE_TYPES)[number];

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const first = (v: unknown): Json => obj(Array.isArray(v) ? v[0] : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A CodeableConcept's words: its text, else its first coding's display. */
const words = (v: unknown): string | undefined => str(obj(v).text) ?? str(first(obj(v).coding).display);
const code = (v: unknown): string | undefined => str(first(obj(v).coding).code);
/** The date part of a FHIR date or dateTime. */
const day = (v: unknown): string | undefined => (typeof v === 'string' ? v.slice(0, 10) : undefined);

/** Where each field of our record comes from in the resource: the expression a validation issue points at. */
const EXPRESSIONS: Record<CreatableType, Record<string, string>> = {
  Condition: {
    condition: 'Condition.code',
    status: 'Condition.clinicalStatus',
    diagnosedDate: 'Condition.onsetDateTime',
    resolvedDate: 'Condition.abatementDateTime',
    description: 'Condition.note',
    doctor: 'Condition.asserter',
    facility: 'Condition',
  },
  AllergyIntolerance: {
    allergen: 'AllergyIntolerance.code',
    reaction: 'AllergyIntolerance.reaction.manifestation',
    severity: 'AllergyIntolerance.reaction.severity',
    reportedDate: 'AllergyIntolerance.recordedDate',
  },
  MedicationStatement: {
    name: 'MedicationStatement.medicationCodeableConcept',
    status: 'MedicationStatement.status',
    dosage: 'MedicationStatement.dosage.text',
    frequency: 'MedicationStatement.dosage.text',
    purpose: 'MedicationStatement.reasonCode',
    prescribedDate: 'MedicationStatement.effectivePeriod.start',
    discontinuedDate: 'MedicationStatement.effectivePeriod.end',
    prescribedBy: 'MedicationStatement.informationSource',
    nextReview: 'MedicationStatement.note',
  },
  Immunization: {
    vaccine: 'Immunization.vaccineCode',
    date: 'Immunization.occurrenceDateTime',
    dose: 'Immunization.protocolApplied.doseNumberString',
    facility: 'Immunization.location',
    batchNumber: 'Immunization.lotNumber',
  },
  Observation: {
    systolic: 'Observation.component',
    diastolic: 'Observation.component',
    temperature: 'Observation.valueQuantity',
    weight: 'Observation.valueQuantity',
    recordedAt: 'Observation.effectiveDateTime',
  },
};

const KIND: Record<CreatableType, RecordKind> = {
  Condition: 'diagnoses',
  AllergyIntolerance: 'allergies',
  MedicationStatement: 'medications',
  Immunization: 'vaccines',
  Observation: 'vitals',
};

/** The patient a new resource is about (`subject` or `patient`: Patient/<id>); 400 otherwise. */
function patientOf(type: CreatableType, r: Json): number {
  const field = type === 'AllergyIntolerance' || type === 'Immunization' ? 'patient' : 'subject';
  const m = /^Patient\/([1-9]\d{0,9})$/.exec(str(obj(r[field]).reference) ?? '');
  if (!m || Number(m[1]) > 2_147_483_647)
    throw validationFailed([{ path: `${type}.${field}`, message: 'A reference to the patient (Patient/<id>) is required' }]);
  return Number(m[1]);
}

const CLINICAL_STATUS: Record<string, string> = {
  active: 'Active',
  recurrence: 'Active',
  relapse: 'Active',
  resolved: 'Resolved',
  inactive: 'Resolved',
  remission: 'Resolved',
};
const MEDICATION_STATUS: Record<string, string> = { active: 'Active', stopped: 'Discontinued', completed: 'Completed' };
const SEVERITY: Record<string, string> = { mild: 'Mild', moderate: 'Moderate', severe: 'Severe' };

/** Observation component or value as a number in the unit we store; undefined when absent or in another unit. */
function quantity(q: unknown, unit: string): number | null | undefined {
  const v = obj(q);
  if (Object.keys(v).length === 0) return undefined;
  return v.code === unit && typeof v.value === 'number' ? v.value : null;
}

function vitalsInput(r: Json): Json {
  const loinc = code(r.code);
  const at = str(r.effectiveDateTime);
  if (loinc === VITALS_LOINC.bloodPressure.code) {
    const components = (Array.isArray(r.component) ? r.component : []) as Json[];
    const part = (c: string) => components.find((x) => code(x.code) === c);
    const systolic = quantity(part(VITALS_LOINC.systolic.code)?.valueQuantity, 'mm[Hg]');
    const diastolic = quantity(part(VITALS_LOINC.diastolic.code)?.valueQuantity, 'mm[Hg]');
    return { systolic: systolic ?? 'missing', diastolic: diastolic ?? 'missing', recordedAt: at };
  }
  if (loinc === VITALS_LOINC.temperature.code) return { temperature: quantity(r.valueQuantity, 'Cel') ?? 'missing', recordedAt: at };
  if (loinc === VITALS_LOINC.weight.code) return { weight: quantity(r.valueQuantity, 'kg') ?? 'missing', recordedAt: at };
  throw validationFailed([{ path: 'Observation.code', message: 'Only vital signs are accepted: LOINC 85354-9, 8310-5 or 29463-7' }]);
}

/** The record input a resource stands for (before the schema checks it). */
function inputOf(scope: FhirScope, type: CreatableType, r: Json): Json {
  const who = staffDisplayName(scope.actor);
  const facility = scope.actor.facility ?? undefined;
  switch (type) {
    case 'Condition':
      return {
        condition: words(r.code),
        status: CLINICAL_STATUS[code(r.clinicalStatus) ?? ''] ?? code(r.clinicalStatus),
        diagnosedDate: day(r.onsetDateTime) ?? day(r.recordedDate),
        resolvedDate: day(r.abatementDateTime) ?? null,
        description: str(first(r.note).text) ?? null,
        doctor: str(obj(r.asserter).display) ?? str(obj(r.recorder).display) ?? who,
        facility,
      };
    case 'AllergyIntolerance': {
      const reaction = first(r.reaction);
      return {
        allergen: words(r.code),
        reaction: words(first(reaction.manifestation)) ?? str(reaction.description),
        severity: SEVERITY[str(reaction.severity) ?? ''] ?? (r.criticality === 'high' ? 'Severe' : str(reaction.severity)),
        reportedDate: day(r.recordedDate) ?? day(r.onsetDateTime),
      };
    }
    case 'MedicationStatement': {
      const dosageText = str(first(r.dosage).text) ?? '';
      const split = dosageText.indexOf(', ');
      const period = obj(r.effectivePeriod);
      return {
        name: words(r.medicationCodeableConcept),
        status: MEDICATION_STATUS[str(r.status) ?? ''] ?? str(r.status),
        dosage: split > 0 ? dosageText.slice(0, split) : dosageText,
        frequency: split > 0 ? dosageText.slice(split + 2) : words(obj(first(r.dosage).timing).code),
        purpose: words(first(r.reasonCode)),
        prescribedDate: day(period.start) ?? day(r.effectiveDateTime) ?? day(r.dateAsserted),
        discontinuedDate: day(period.end) ?? null,
        prescribedBy: str(obj(r.informationSource).display) ?? who,
        nextReview: null,
      };
    }
    case 'Immunization':
      if (r.status !== 'completed')
        throw validationFailed([{ path: 'Immunization.status', message: 'Only completed immunizations are recorded' }]);
      return {
        vaccine: words(r.vaccineCode),
        date: day(r.occurrenceDateTime),
        dose:
          str(first(r.protocolApplied).doseNumberString) ??
          (Number.isInteger(first(r.protocolApplied).doseNumberPositiveInt)
            ? `Dose ${String(first(r.protocolApplied).doseNumberPositiveInt)}`
            : undefined),
        facility: str(obj(r.location).display) ?? facility,
        batchNumber: str(r.lotNumber) ?? null,
      };
    case 'Observation':
      return vitalsInput(r);
  }
}

/** POST <Type>: the stored item as a resource (for an Observation, the one the request described). */
export async function createResource(scope: FhirScope, type: CreatableType, body: unknown): Promise<FhirResource> {
  const r = obj(body);
  if (r.resourceType !== type) throw validationFailed([{ path: 'resourceType', message: `The body must be a ${type}` }]);
  const patientId = patientOf(type, r);
  const kind = KIND[type];
  const parsed = recordInputs(() => scope.now)[kind].safeParse(inputOf(scope, type, r));
  if (!parsed.success) {
    const expressions = EXPRESSIONS[type];
    throw validationFailed(
      parsed.error.issues.map((i) => ({ path: expressions[String(i.path[0] ?? '')] ?? type, message: i.message })),
      `Invalid ${type}`,
    );
  }
  const row = await addRecordItem(scope, kind, patientId, parsed.data as NewRecordItem<typeof kind>);
  switch (type) {
    case 'Condition':
      return conditionResource(row as RecordRows['diagnoses']);
    case 'AllergyIntolerance':
      return allergyResource(row as RecordRows['allergies']);
    case 'MedicationStatement':
      return medicationResource(row as RecordRows['medications']);
    case 'Immunization':
      return immunizationResource(row as RecordRows['vaccines']);
    case 'Observation':
      return vitalsObservations(row as RecordRows['vitals'])[0]!;
  }
}
