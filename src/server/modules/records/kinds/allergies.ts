// Allergies on the server: the table, the duplicate warning, and FHIR AllergyIntolerance (coded by ATC class or
// substance when picked from the catalogue).
import { allergies as contract } from '../../../../contracts/kinds/allergies';
import { codedFrom, day, first, str, words } from '../../../fhir/input';
import { coding, concept, patientReference, rowIdOf, text } from '../../../fhir/resources';
import { duplicateEntryWarnings } from './duplicate-check.repository';
import { allergyCheckWarnings } from './medicine-checks';
import { defineServerKind } from './server-kind';
import { allergiesTable } from './allergies-table';

export { allergiesTable };

const TO_SEVERITY: Record<string, string> = { Mild: 'mild', Moderate: 'moderate', Severe: 'severe' };
const FROM_SEVERITY: Record<string, string> = { mild: 'Mild', moderate: 'Moderate', severe: 'Severe' };

export const allergiesKind = defineServerKind<'allergies'>({
  contract,
  table: allergiesTable,
  // The same allergy already recorded, then the active medicines it contraindicates (decision 043).
  check: async (scope, input, editing) => [
    ...(await duplicateEntryWarnings(scope, allergiesTable, input, input.allergen, undefined, editing)),
    ...(await allergyCheckWarnings(scope, input, editing)),
  ],
  fhir: {
    type: 'AllergyIntolerance',
    rowId: rowIdOf,
    resources: (a) => [
      {
        resourceType: 'AllergyIntolerance',
        id: String(a.id),
        clinicalStatus: coding('http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical', 'active'),
        verificationStatus: coding('http://terminology.hl7.org/CodeSystem/allergyintolerance-verification', 'confirmed'),
        criticality: a.severity === 'Severe' ? 'high' : 'low',
        code: concept(a.allergen, a),
        patient: patientReference(a.patientId),
        recordedDate: a.reportedDate,
        reaction: [{ manifestation: [text(a.reaction)], severity: TO_SEVERITY[a.severity] ?? 'moderate' }],
      },
    ],
    search: null,
    create: {
      patientField: 'patient',
      accepts: () => true,
      input: (r) => {
        const reaction = first(r.reaction);
        return {
          allergen: words(r.code),
          ...codedFrom(r.code, contract.coded.systems),
          reaction: words(first(reaction.manifestation)) ?? str(reaction.description),
          severity: FROM_SEVERITY[str(reaction.severity) ?? ''] ?? (r.criticality === 'high' ? 'Severe' : str(reaction.severity)),
          reportedDate: day(r.recordedDate) ?? day(r.onsetDateTime),
        };
      },
      expressions: {
        allergen: 'AllergyIntolerance.code',
        code: 'AllergyIntolerance.code.coding',
        codeSystem: 'AllergyIntolerance.code.coding',
        reaction: 'AllergyIntolerance.reaction.manifestation',
        severity: 'AllergyIntolerance.reaction.severity',
        reportedDate: 'AllergyIntolerance.recordedDate',
      },
    },
    ips: { code: '48765-2', title: 'Allergies and intolerances' },
  },
});
