// Allergies on the server: the table, the duplicate warning, and FHIR AllergyIntolerance (coded by ATC class or
// substance when picked from the catalogue).
import { allergies as contract, isNoKnownAllergy, noKnownAllergyInput } from '../../../../contracts/kinds/allergies';
import { firstCode, str, type Json } from '../../../fhir/input';
import {
  codedConcept,
  dayOf,
  ENTERED_IN_ERROR_REASON,
  errorStatusOf,
  fixedCode,
  notHeld,
  oneOf,
  onlyKeys,
  REFUTED_REASON,
  single,
  textConcept,
} from '../../../fhir/faithful';
import { coding, concept, patientReference, rowIdOf, text } from '../../../fhir/resources';
import { duplicateEntryWarnings } from './duplicate-check.repository';
import { allergyCheckWarnings } from './medicine-checks';
import { defineServerKind } from './server-kind';
import { allergiesTable } from './allergies-table';

export { allergiesTable };

const TO_SEVERITY: Record<string, string> = { Mild: 'mild', Moderate: 'moderate', Severe: 'severe' };
const FROM_SEVERITY: Record<string, string> = { mild: 'Mild', moderate: 'Moderate', severe: 'Severe' };
const CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const VERIFICATION = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';

function allergyInput(r: Json): Json {
  oneOf(fixedCode(r.clinicalStatus, 'AllergyIntolerance.clinicalStatus', CLINICAL), 'AllergyIntolerance.clinicalStatus', ['active']);
  oneOf(fixedCode(r.verificationStatus, 'AllergyIntolerance.verificationStatus', VERIFICATION), 'AllergyIntolerance.verificationStatus', [
    'confirmed',
    'refuted',
    'entered-in-error',
  ]);
  const coded = codedConcept(r.code, 'AllergyIntolerance.code', contract.coded.systems);
  const reportedDate = dayOf(r.recordedDate, 'AllergyIntolerance.recordedDate');
  const criticality = oneOf(str(r.criticality), 'AllergyIntolerance.criticality', ['low', 'high']);
  if (isNoKnownAllergy(coded)) {
    // A "no known allergy" has no reaction and no criticality.
    if (r.reaction !== undefined) throw notHeld('AllergyIntolerance.reaction', 'A "no known allergy" entry has no reaction');
    if (criticality !== undefined) throw notHeld('AllergyIntolerance.criticality', 'A "no known allergy" entry has no criticality');
    return { allergen: coded.words, code: coded.code, codeSystem: coded.codeSystem, codings: coded.codings, reportedDate };
  }
  const reaction = onlyKeys(
    single(r.reaction, 'AllergyIntolerance.reaction'),
    ['manifestation', 'severity'],
    'AllergyIntolerance.reaction',
  );
  const manifestation = textConcept(
    single(reaction.manifestation, 'AllergyIntolerance.reaction.manifestation'),
    'AllergyIntolerance.reaction.manifestation',
  );
  const sent = str(reaction.severity);
  const severity = sent === undefined ? (criticality === 'high' ? 'Severe' : undefined) : (FROM_SEVERITY[sent] ?? sent);
  // The record keeps the severity; the criticality it gives is high for a severe reaction, low otherwise.
  if (criticality !== undefined && severity !== undefined && (criticality === 'high') !== (severity === 'Severe'))
    throw notHeld('AllergyIntolerance.criticality', 'The record gives criticality high for a severe reaction and low otherwise');
  return {
    allergen: coded.words,
    code: coded.code,
    codeSystem: coded.codeSystem,
    codings: coded.codings,
    reaction: manifestation,
    severity,
    reportedDate,
  };
}

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
    resources: (a) => {
      const inError = errorStatusOf(a);
      return [
        {
          resourceType: 'AllergyIntolerance',
          id: String(a.id),
          // FHIR ait-2: an entered-in-error AllergyIntolerance has no clinical status.
          ...(inError === 'entered-in-error' ? {} : { clinicalStatus: coding(CLINICAL, 'active') }),
          verificationStatus: coding(VERIFICATION, inError ?? 'confirmed'),
          ...(a.severity ? { criticality: a.severity === 'Severe' ? 'high' : 'low' } : {}),
          code: concept(a.allergen, a),
          patient: patientReference(a.patientId),
          recordedDate: a.reportedDate,
          ...(a.reaction ? { reaction: [{ manifestation: [text(a.reaction)], severity: TO_SEVERITY[a.severity] ?? 'moderate' }] } : {}),
        },
      ];
    },
    search: null,
    create: {
      patientField: 'patient',
      accepts: () => true,
      elements: ['clinicalStatus', 'verificationStatus', 'criticality', 'code', 'patient', 'recordedDate', 'reaction'],
      input: allergyInput,
      enteredInError: (r) => {
        const code = firstCode(r.verificationStatus);
        return code === 'refuted' ? REFUTED_REASON : code === 'entered-in-error' ? ENTERED_IN_ERROR_REASON : null;
      },
      schema: (r, now) =>
        isNoKnownAllergy(codedConcept(r.code, 'AllergyIntolerance.code', contract.coded.systems)) ? noKnownAllergyInput(now) : null,
      expressions: {
        allergen: 'AllergyIntolerance.code',
        code: 'AllergyIntolerance.code.coding',
        codeSystem: 'AllergyIntolerance.code.coding',
        codings: 'AllergyIntolerance.code.coding',
        reaction: 'AllergyIntolerance.reaction.manifestation',
        severity: 'AllergyIntolerance.reaction.severity',
        reportedDate: 'AllergyIntolerance.recordedDate',
      },
    },
    ips: { code: '48765-2', title: 'Allergies and intolerances' },
  },
});
