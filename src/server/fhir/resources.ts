// Our records as FHIR R4 resources (issue 14): the Patient, and the parts every kind's mapping is made of
// (src/server/modules/records/kinds/). Only what the record holds is said: free text goes in `text` of a
// CodeableConcept, a coded entry adds its coding from the catalogue (no invented codes), people we know only by
// name are references with a `display`, and the identifiers are named once here.
import type { PatientDetails, PatientSummary } from '../../contracts/patients';
import { LOINC_SYSTEM, UCUM_SYSTEM } from '../../contracts/code-systems';
import type { CodedRow } from '../../contracts/kinds/coded';

/** The NC number's identifier system (documented in README: FHIR API). */
export const NC_NUMBER_SYSTEM = 'https://nhr.health.gov.na/fhir/sid/nc-number';
/** Appointment times are Namibian local time (UTC+2, no daylight saving). */
export const LOCAL_OFFSET = '+02:00';
export const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';

/** A FHIR resource as JSON: its type, id and fields. */
export interface FhirResource {
  resourceType: string;
  id?: string;
  [field: string]: unknown;
}

export const patientReference = (patientId: number) => ({ reference: `Patient/${patientId}` });
export const named = (display: string) => ({ display });
export const text = (value: string) => ({ text: value });
export const coding = (system: string, code: string, display?: string) => ({
  coding: [{ system, code, ...(display ? { display } : {}) }],
});
/**
 * A CodeableConcept of what the clinician wrote, with the catalogue's coding when the entry is coded; an entry a FHIR
 * client sent with codings of its own carries them as sent (decision 049).
 */
export const concept = (words: string, row: CodedRow) =>
  row.codings?.length
    ? { coding: row.codings, text: words }
    : row.code && row.codeSystem
      ? { coding: [{ system: row.codeSystem, code: row.code, ...(row.codeDisplay ? { display: row.codeDisplay } : {}) }], text: words }
      : { text: words };
/** A LOINC CodeableConcept. */
export const loinc = (c: { code: string; display: string }) => ({
  coding: [{ system: LOINC_SYSTEM, code: c.code, display: c.display }],
  text: c.display,
});
/** A UCUM quantity. */
export const quantity = (value: number, unit: string, code: string) => ({ value, unit, system: UCUM_SYSTEM, code });
/** The numeric id of a row as a FHIR id (most kinds: one resource per row). */
export const rowIdOf = (id: string): number | null => (/^[1-9]\d{0,9}$/.test(id) && Number(id) <= 2_147_483_647 ? Number(id) : null);

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
