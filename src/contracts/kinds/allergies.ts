// Allergies (SPEC §3, §5): an allergen, coded as a substance or class (ATC drug classes, food and environment
// categories) when picked from the catalogue.
import { z } from 'zod';
import { PORTAL_HIDDEN, versionedRowShape } from './versioned';
import { CODE_PAIRED, codePaired, codedInputShape, codedRowShape } from './coded';
import { choice, day, requiredDate, requiredText, type Now } from './fields';
import { ALLERGY_SUBSTANCE_SYSTEM, ATC_SYSTEM } from '../code-systems';
import { defineKind } from './kind-contract';

export const ALLERGY_SEVERITIES = ['Mild', 'Moderate', 'Severe'] as const;
export type AllergySeverity = (typeof ALLERGY_SEVERITIES)[number];

const input = (now: Now) =>
  z
    .strictObject({
      allergen: requiredText(200, 'validation:allergenRequired'),
      ...codedInputShape,
      reaction: requiredText(500, 'validation:reactionRequired'),
      severity: choice(ALLERGY_SEVERITIES, 'validation:severityRequired'),
      reportedDate: requiredDate(now, 'validation:dateRequired', 'past'),
    })
    .refine(codePaired, CODE_PAIRED);

/** SNOMED CT. */
export const SNOMED_SYSTEM = 'http://snomed.info/sct';
/** The IPS absent and unknown data code system. */
export const IPS_ABSENT_UNKNOWN_SYSTEM = 'http://hl7.org/fhir/uv/ips/CodeSystem/absent-unknown-uv-ips';
/** The codes of "no known allergy" (and of "no information about allergies") a FHIR client may send (decision 049). */
const NO_KNOWN_ALLERGY: Readonly<Record<string, readonly string[]>> = {
  [SNOMED_SYSTEM]: ['716186003', '409137002', '429625007', '428607008'],
  [IPS_ABSENT_UNKNOWN_SYSTEM]: [
    'no-allergy-info',
    'no-known-allergies',
    'no-known-medication-allergies',
    'no-known-food-allergies',
    'no-known-environmental-allergies',
  ],
};

/** Whether an entry says "no known allergy" (or "no information"): it has no reaction and no severity, and is no allergy. */
export const isNoKnownAllergy = (a: { codings?: readonly { system: string; code: string }[] | null }): boolean =>
  (a.codings ?? []).some((c) => NO_KNOWN_ALLERGY[c.system]?.includes(c.code) ?? false);

/**
 * The input of a "no known allergy" entry (sent through FHIR; decision 049): its words, codes and date, stored with an
 * empty reaction and severity (the staff form's schema above is unchanged).
 */
export const noKnownAllergyInput = (now: Now) =>
  z
    .strictObject({
      allergen: requiredText(200, 'validation:allergenRequired'),
      ...codedInputShape,
      reportedDate: requiredDate(now, 'validation:dateRequired', 'past'),
    })
    .refine(codePaired, CODE_PAIRED)
    .transform((v) => ({ ...v, reaction: '', severity: '' as AllergySeverity }));

/** SPEC §9: the safety panel lists up to 3 allergies, most severe first. */
export const SAFETY_ALLERGIES = 3;
const SEVERITY_RANK: Record<string, number> = { Severe: 0, Moderate: 1, Mild: 2 };

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  ...versionedRowShape,
  allergen: z.string(),
  ...codedRowShape,
  reaction: z.string(),
  severity: z.string(),
  reportedDate: day,
});

export const allergies = defineKind({
  kind: 'allergies',
  resourceType: 'ALLERGY',
  notFound: 'Allergy not found',
  input,
  row,
  order: ['reportedDate', 'id'],
  coded: { field: 'allergen', systems: [ATC_SYSTEM, ALLERGY_SUBSTANCE_SYSTEM] },
  portal: { row: row.omit({ patientId: true, ...PORTAL_HIDDEN }), from: ({ patientId: _p, ...a }) => a },
  dashboard: {
    counters: [{ key: 'allergies', position: 4, count: (rows) => rows.filter((a) => !isNoKnownAllergy(a)).length }],
    panels: [
      {
        panel: 'safety',
        empty: 'noSafety',
        position: 2.1,
        heading: 'criticalAllergies',
        rows: (rows) =>
          rows
            .filter((a) => !isNoKnownAllergy(a))
            .sort(
              (a, b) => (SEVERITY_RANK[a.severity] ?? 3) - (SEVERITY_RANK[b.severity] ?? 3) || b.reportedDate.localeCompare(a.reportedDate),
            )
            .slice(0, SAFETY_ALLERGIES),
      },
    ],
  },
});
export type AllergyRow = z.infer<typeof row>;
