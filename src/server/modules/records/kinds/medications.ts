// Medications on the server: the table, the duplicate warning (the same medicine still active), the medicine
// checks, and FHIR MedicationStatement (ATC coded when picked from the catalogue).
import { medications as contract } from '../../../../contracts/kinds/medications';
import { codedFrom, day, first, obj, str, words } from '../../../fhir/input';
import { concept, named, patientReference, rowIdOf, text } from '../../../fhir/resources';
import { medicationWarnings } from './medicine-checks';
import { defineServerKind } from './server-kind';
import { medicationsTable } from './medications-table';

export { medicationsTable };

const TO_STATUS: Record<string, string> = { Active: 'active', Discontinued: 'stopped', Completed: 'completed' };
const FROM_STATUS: Record<string, string> = { active: 'Active', stopped: 'Discontinued', completed: 'Completed' };

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
        status: TO_STATUS[m.status] ?? 'unknown',
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
      input: (r, by) => {
        const dosageText = str(first(r.dosage).text) ?? '';
        const split = dosageText.indexOf(', ');
        const period = obj(r.effectivePeriod);
        return {
          name: words(r.medicationCodeableConcept),
          ...codedFrom(r.medicationCodeableConcept, contract.coded.systems),
          status: FROM_STATUS[str(r.status) ?? ''] ?? str(r.status),
          dosage: split > 0 ? dosageText.slice(0, split) : dosageText,
          frequency: split > 0 ? dosageText.slice(split + 2) : words(obj(first(r.dosage).timing).code),
          purpose: words(first(r.reasonCode)),
          prescribedDate: day(period.start) ?? day(r.effectiveDateTime) ?? day(r.dateAsserted),
          discontinuedDate: day(period.end) ?? null,
          prescribedBy: str(obj(r.informationSource).display) ?? by.name,
          nextReview: null,
        };
      },
      expressions: {
        name: 'MedicationStatement.medicationCodeableConcept',
        code: 'MedicationStatement.medicationCodeableConcept.coding',
        codeSystem: 'MedicationStatement.medicationCodeableConcept.coding',
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
