// Allergies (SPEC §3, §5): an allergen, coded as a substance or class (ATC drug classes, food and environment
// categories) when picked from the catalogue.
import { z } from 'zod';
import { CODE_PAIRED, codePaired, codedInputShape, codedRowShape } from './coded';
import { choice, day, requiredDate, requiredText, type Now } from './fields';
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

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
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
  coded: { field: 'allergen', catalogue: 'allergies' },
  portal: { row: row.omit({ patientId: true }), from: ({ patientId: _p, ...a }) => a },
});
export type AllergyRow = z.infer<typeof row>;
