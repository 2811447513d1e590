// Medications on the server: the table, the duplicate warning (the same medicine still active), the medicine
// checks, and FHIR MedicationStatement (ATC coded when picked from the catalogue).
import { medications as contract } from '../../../../contracts/kinds/medications';
import { str, type Json } from '../../../fhir/input';
import {
  codedConcept,
  dayOf,
  displayOf,
  ENTERED_IN_ERROR_REASON,
  errorStatusOf,
  notHeld,
  noteText,
  oneOf,
  onlyKeys,
  single,
  textConcept,
} from '../../../fhir/faithful';
import { concept, named, patientReference, rowIdOf, text } from '../../../fhir/resources';
import { medicationWarnings } from './medicine-checks';
import { defineServerKind } from './server-kind';
import { medicationsTable } from './medications-table';

export { medicationsTable };

const TO_STATUS: Record<string, string> = { Active: 'active', Discontinued: 'stopped', Completed: 'completed' };
const FROM_STATUS: Record<string, string> = {
  active: 'Active',
  stopped: 'Discontinued',
  completed: 'Completed',
  'entered-in-error': 'Active',
};
const NEXT_REVIEW = /^Next review: (\d{4}-\d{2}-\d{2})$/;

function medicationInput(r: Json, by: { name: string }): Json {
  const status = oneOf(str(r.status), 'MedicationStatement.status', ['active', 'stopped', 'completed', 'entered-in-error']);
  const coded = codedConcept(r.medicationCodeableConcept, 'MedicationStatement.medicationCodeableConcept', contract.coded.systems);
  const period = onlyKeys(r.effectivePeriod, ['start', 'end'], 'MedicationStatement.effectivePeriod');
  const start = dayOf(period.start, 'MedicationStatement.effectivePeriod.start');
  const asserted = dayOf(r.dateAsserted, 'MedicationStatement.dateAsserted');
  // The record holds one date the medicine was prescribed: the period's start, and the date it was asserted.
  if (start !== undefined && asserted !== undefined && start !== asserted)
    throw notHeld('MedicationStatement.dateAsserted', 'The record holds one date, the start; dateAsserted must be the same day');
  const dosage = onlyKeys(single(r.dosage, 'MedicationStatement.dosage'), ['text'], 'MedicationStatement.dosage');
  const dosageText = str(dosage.text) ?? '';
  // The record holds the dose and how often, written "<dose>, <frequency>".
  const split = dosageText.indexOf(', ');
  if (dosageText && split <= 0)
    throw notHeld('MedicationStatement.dosage.text', 'The record holds the dose and the frequency, written "<dose>, <frequency>"');
  const note = noteText(r.note, 'MedicationStatement.note');
  const review = note === undefined ? null : NEXT_REVIEW.exec(note);
  if (note !== undefined && !review)
    throw notHeld('MedicationStatement.note', 'The record holds a note of the next review only ("Next review: YYYY-MM-DD")');
  return {
    name: coded.words,
    code: coded.code,
    codeSystem: coded.codeSystem,
    codings: coded.codings,
    status: status === undefined ? undefined : FROM_STATUS[status],
    dosage: split > 0 ? dosageText.slice(0, split) : undefined,
    frequency: split > 0 ? dosageText.slice(split + 2) : undefined,
    purpose: textConcept(single(r.reasonCode, 'MedicationStatement.reasonCode'), 'MedicationStatement.reasonCode'),
    prescribedDate: start ?? asserted,
    discontinuedDate: dayOf(period.end, 'MedicationStatement.effectivePeriod.end') ?? null,
    prescribedBy: displayOf(r.informationSource, 'MedicationStatement.informationSource') ?? by.name,
    nextReview: review?.[1] ?? null,
  };
}

export const medicationsKind = defineServerKind<'medications'>({
  contract,
  table: medicationsTable,
  // The same medicine still active, then the medicine checks (allergies and interactions, decision 043), in one read.
  check: medicationWarnings,
  fhir: {
    type: 'MedicationStatement',
    rowId: rowIdOf,
    resources: (m) => [
      {
        resourceType: 'MedicationStatement',
        id: String(m.id),
        status: errorStatusOf(m) ? 'entered-in-error' : (TO_STATUS[m.status] ?? 'unknown'),
        medicationCodeableConcept: concept(m.name, m),
        subject: patientReference(m.patientId),
        effectivePeriod: { start: m.prescribedDate, ...(m.discontinuedDate ? { end: m.discontinuedDate } : {}) },
        dateAsserted: m.prescribedDate,
        informationSource: named(m.prescribedBy),
        reasonCode: [text(m.purpose)],
        dosage: [{ text: `${m.dosage}, ${m.frequency}` }],
        ...(m.nextReview ? { note: [{ text: `Next review: ${m.nextReview}` }] } : {}),
      },
    ],
    search: null,
    create: {
      patientField: 'subject',
      accepts: () => true,
      elements: [
        'status',
        'medicationCodeableConcept',
        'subject',
        'effectivePeriod',
        'dateAsserted',
        'informationSource',
        'reasonCode',
        'dosage',
        'note',
      ],
      input: medicationInput,
      enteredInError: (r) => (r.status === 'entered-in-error' ? ENTERED_IN_ERROR_REASON : null),
      expressions: {
        name: 'MedicationStatement.medicationCodeableConcept',
        code: 'MedicationStatement.medicationCodeableConcept.coding',
        codeSystem: 'MedicationStatement.medicationCodeableConcept.coding',
        codings: 'MedicationStatement.medicationCodeableConcept.coding',
        status: 'MedicationStatement.status',
        dosage: 'MedicationStatement.dosage.text',
        frequency: 'MedicationStatement.dosage.text',
        purpose: 'MedicationStatement.reasonCode',
        prescribedDate: 'MedicationStatement.effectivePeriod.start',
        discontinuedDate: 'MedicationStatement.effectivePeriod.end',
        prescribedBy: 'MedicationStatement.informationSource',
        nextReview: 'MedicationStatement.note',
      },
    },
    ips: { code: '10160-0', title: 'Medication summary' },
  },
});
