// The fields of each add dialog (SPEC §5), in order, with their defaults (SPEC §4: Active, Scheduled, Mild, Active).
import { ALLERGY_SEVERITIES } from '../../../../contracts/kinds/allergies';
import { APPOINTMENT_STATUSES } from '../../../../contracts/kinds/appointments';
import { DIAGNOSIS_STATUSES } from '../../../../contracts/kinds/diagnoses';
import { MEDICATION_STATUSES } from '../../../../contracts/kinds/medications';
import type { RecordKind } from '../../../../contracts/kinds';

export type FieldControl = 'text' | 'textarea' | 'date' | 'time' | 'select' | 'number';

export interface FieldSpec {
  name: string;
  control: FieldControl;
  required?: boolean;
  /** For selects: the values, translated under record:<labels>.<value>. */
  options?: readonly string[];
  labels?: 'status' | 'severity';
  placeholder?: boolean;
  step?: string;
  /** Two fields side by side on wide screens. */
  half?: boolean;
}

export const FORM_FIELDS: Record<RecordKind, FieldSpec[]> = {
  diagnoses: [
    { name: 'condition', control: 'text', required: true },
    { name: 'status', control: 'select', required: true, options: DIAGNOSIS_STATUSES, labels: 'status' },
    { name: 'diagnosedDate', control: 'date', required: true, half: true },
    { name: 'resolvedDate', control: 'date', half: true },
    { name: 'doctor', control: 'text', required: true, half: true },
    { name: 'facility', control: 'text', required: true, half: true },
    { name: 'description', control: 'textarea' },
  ],
  appointments: [
    { name: 'type', control: 'text', required: true, placeholder: true },
    { name: 'date', control: 'date', required: true, half: true },
    { name: 'time', control: 'time', half: true },
    { name: 'status', control: 'select', required: true, options: APPOINTMENT_STATUSES, labels: 'status' },
    { name: 'doctor', control: 'text', required: true, half: true },
    { name: 'facility', control: 'text', required: true, half: true },
    { name: 'findings', control: 'textarea' },
  ],
  allergies: [
    { name: 'allergen', control: 'text', required: true },
    { name: 'reaction', control: 'text', required: true },
    { name: 'severity', control: 'select', required: true, options: ALLERGY_SEVERITIES, labels: 'severity', half: true },
    { name: 'reportedDate', control: 'date', required: true, half: true },
  ],
  medications: [
    { name: 'name', control: 'text', required: true },
    { name: 'status', control: 'select', required: true, options: MEDICATION_STATUSES, labels: 'status' },
    { name: 'dosage', control: 'text', required: true, placeholder: true, half: true },
    { name: 'frequency', control: 'text', required: true, placeholder: true, half: true },
    { name: 'purpose', control: 'text', required: true },
    { name: 'prescribedDate', control: 'date', required: true, half: true },
    { name: 'discontinuedDate', control: 'date', half: true },
    { name: 'prescribedBy', control: 'text', required: true, half: true },
    { name: 'nextReview', control: 'date', half: true },
  ],
  vaccines: [
    { name: 'vaccine', control: 'text', required: true },
    { name: 'date', control: 'date', required: true, half: true },
    { name: 'dose', control: 'text', required: true, placeholder: true, half: true },
    { name: 'facility', control: 'text', required: true },
    { name: 'nextDue', control: 'date', half: true },
    { name: 'batchNumber', control: 'text', half: true },
  ],
  vitals: [
    { name: 'systolic', control: 'number', step: '1', half: true },
    { name: 'diastolic', control: 'number', step: '1', half: true },
    { name: 'temperature', control: 'number', step: '0.1', half: true },
    { name: 'weight', control: 'number', step: '0.1', half: true },
  ],
};

/** The empty form of each kind: selects start on the SPEC §4 default, everything else blank. */
export function formDefaults(kind: RecordKind): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const f of FORM_FIELDS[kind]) defaults[f.name] = f.options ? f.options[0]! : '';
  return defaults;
}
