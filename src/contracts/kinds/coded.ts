// Coded entries (issue 22 item 3): a kind whose main text can carry a code from one of the catalogues shipped with
// the app (catalogues/). The input takes `code` and `codeSystem` together or neither (free text, "uncoded"); the
// server checks the pair against the catalogue and stores the catalogue's display beside it. Rows carry all three,
// null when uncoded. Existing rows stay valid: they are uncoded.
import { z } from 'zod';
import { safeString } from '../fields';

/** The code systems of the catalogues, as FHIR names them. */
export const CODE_SYSTEMS = {
  icd10: 'http://hl7.org/fhir/sid/icd-10',
  atc: 'http://www.whocc.no/atc',
  cvx: 'http://hl7.org/fhir/sid/cvx',
  loinc: 'http://loinc.org',
  allergySubstance: 'https://nhr.health.gov.na/fhir/CodeSystem/allergy-substance',
  ucum: 'http://unitsofmeasure.org',
} as const;

/** The catalogue a kind's codes come from (the `kind` of GET /api/codes). */
export type CatalogueName = 'diagnoses' | 'medications' | 'vaccines' | 'allergies' | 'lab-results';

export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9.\-]{0,31}$/;

/** The input half: `code` and `codeSystem`, both or neither (missing, null or '' is none). */
export const codedInputShape = {
  code: safeString('validation:codeInvalid')
    .trim()
    .nullish()
    .refine((v) => !v || CODE_PATTERN.test(v), { error: 'validation:codeInvalid' })
    .transform((v) => (v ? v : null)),
  codeSystem: safeString('validation:codeSystemInvalid')
    .trim()
    .max(200, { error: 'validation:tooLong' })
    .nullish()
    .transform((v) => (v ? v : null)),
};

/** Both or neither: a refinement for a schema holding codedInputShape. */
export const codePaired = (v: { code: string | null; codeSystem: string | null }): boolean => (v.code === null) === (v.codeSystem === null);
export const CODE_PAIRED = { error: 'validation:codePaired', path: ['code'] };

/** The row half: null when the entry is uncoded (free text). */
export const codedRowShape = {
  code: z.string().nullable(),
  codeSystem: z.string().nullable(),
  /** The catalogue's title of the code, as it was when the entry was stored. */
  codeDisplay: z.string().nullable(),
};
export type CodedRow = { code: string | null; codeSystem: string | null; codeDisplay: string | null };

/** The code systems each catalogue's codes come from (an allergy is a drug class by ATC or a substance of ours). */
export const CATALOGUE_SYSTEMS: Record<CatalogueName, readonly string[]> = {
  diagnoses: [CODE_SYSTEMS.icd10],
  medications: [CODE_SYSTEMS.atc],
  vaccines: [CODE_SYSTEMS.cvx],
  allergies: [CODE_SYSTEMS.atc, CODE_SYSTEMS.allergySubstance],
  'lab-results': [CODE_SYSTEMS.loinc],
};
