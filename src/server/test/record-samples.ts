// A valid add body of each record kind (SPEC §7 bodies), and the SPEC §5 required fields with their message keys.
import type { RecordKind } from '../../contracts/kinds';

export const SAMPLE_INPUTS: Record<RecordKind, Record<string, unknown>> = {
  diagnoses: {
    condition: 'Type 2 diabetes mellitus',
    status: 'Active',
    diagnosedDate: '2024-05-02',
    resolvedDate: '',
    description: 'HbA1c 8.1%',
    doctor: 'Dr. Tangeni Shikongo',
    facility: 'Katutura State Hospital',
  },
  appointments: {
    type: 'Follow-up consultation',
    date: '2024-06-10',
    time: '09:30',
    status: 'Completed',
    doctor: 'Dr. Tangeni Shikongo',
    facility: 'Katutura State Hospital',
    findings: 'Blood glucose improving',
  },
  allergies: { allergen: 'Penicillin', reaction: 'Hives and swelling', severity: 'Severe', reportedDate: '2019-11-20' },
  medications: {
    name: 'Metformin',
    status: 'Active',
    dosage: '500mg daily',
    frequency: 'Twice daily',
    purpose: 'Blood sugar control',
    prescribedDate: '2024-05-02',
    discontinuedDate: '',
    prescribedBy: 'Dr. Tangeni Shikongo',
    nextReview: '',
  },
  vaccines: { vaccine: 'Tetanus toxoid', date: '2023-02-14', facility: 'Oshakati State Hospital', dose: 'Booster', nextDue: '2033-02-14' },
  vitals: { systolic: 128, diastolic: 84, temperature: 36.8, weight: 72.5 },
  'lab-results': {
    name: 'Haemoglobin',
    value: 13.2,
    unit: 'g/dL',
    referenceLow: 12,
    referenceHigh: 16,
    collectedDate: '2024-06-10',
    status: 'final',
    facility: 'Windhoek Central Hospital Laboratory',
  },
};

/** A medication that tests and journeys add and then edit (its dosage, 500mg, changed). */
export const METFORMIN = {
  name: 'Metformin',
  status: 'Active',
  dosage: '500mg',
  frequency: 'Twice daily',
  purpose: 'Type 2 diabetes',
  prescribedDate: '2024-02-01',
  prescribedBy: 'Dr. Ndahafa Shikongo',
};

/** SPEC §5: each required field and the message key when it is missing. */
export const REQUIRED_FIELDS: Record<RecordKind, Record<string, string>> = {
  diagnoses: {
    condition: 'validation:conditionRequired',
    status: 'validation:statusRequired',
    diagnosedDate: 'validation:dateRequired',
    doctor: 'validation:doctorRequired',
    facility: 'validation:facilityRequired',
  },
  appointments: {
    type: 'validation:typeRequired',
    date: 'validation:dateRequired',
    status: 'validation:statusRequired',
    doctor: 'validation:doctorRequired',
    facility: 'validation:facilityRequired',
  },
  allergies: {
    allergen: 'validation:allergenRequired',
    reaction: 'validation:reactionRequired',
    severity: 'validation:severityRequired',
    reportedDate: 'validation:dateRequired',
  },
  medications: {
    name: 'validation:medicationNameRequired',
    status: 'validation:statusRequired',
    dosage: 'validation:dosageRequired',
    frequency: 'validation:frequencyRequired',
    purpose: 'validation:purposeRequired',
    prescribedDate: 'validation:prescribedDateRequired',
    prescribedBy: 'validation:prescribedByRequired',
  },
  vaccines: {
    vaccine: 'validation:vaccineNameRequired',
    date: 'validation:dateRequired',
    facility: 'validation:facilityRequired',
    dose: 'validation:doseRequired',
  },
  vitals: {},
  'lab-results': {
    name: 'validation:labTestRequired',
    value: 'validation:labValueRequired',
    collectedDate: 'validation:dateRequired',
    status: 'validation:statusRequired',
    facility: 'validation:facilityRequired',
  },
};
