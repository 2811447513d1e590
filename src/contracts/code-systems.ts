// The code systems of the catalogues shipped in catalogues/ (issue 22 item 3), as FHIR names them, and the short
// names a catalogue file's `system` column uses. Which kinds use which systems is each kind's own (contracts/kinds).

/** ICD-10 (WHO). */
export const ICD10_SYSTEM = 'http://hl7.org/fhir/sid/icd-10';
/** WHO ATC: medicines, and drug classes and single drugs. */
export const ATC_SYSTEM = 'http://www.whocc.no/atc';
/** CDC CVX (a vaccine's WHO ATC J07 code rides along as `atc`). */
export const CVX_SYSTEM = 'http://hl7.org/fhir/sid/cvx';
/** LOINC: laboratory tests. */
export const LOINC_SYSTEM = 'http://loinc.org';
/** Our own code system of food and environmental substances (catalogues/allergies.SOURCE.md). */
export const ALLERGY_SUBSTANCE_SYSTEM = 'https://nhr.health.gov.na/fhir/CodeSystem/allergy-substance';
/** UCUM: units of measure. */
export const UCUM_SYSTEM = 'http://unitsofmeasure.org';

/** A catalogue file's `system` column: the short name of a row's code system. */
export const SYSTEM_SHORT_NAMES: Readonly<Record<string, string>> = {
  icd10: ICD10_SYSTEM,
  atc: ATC_SYSTEM,
  cvx: CVX_SYSTEM,
  loinc: LOINC_SYSTEM,
  local: ALLERGY_SUBSTANCE_SYSTEM,
};

/** Longest code and system URI a coded input may carry (the longest in the catalogues is far shorter). */
export const CODE_MAX = 32;
export const CODE_SYSTEM_MAX = 100;
export const CODE_DISPLAY_MAX = 300;
