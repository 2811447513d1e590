// Diagnoses (SPEC §3, §5): a condition, coded from ICD-10 when picked from the catalogue.
import { z } from 'zod';
import { PORTAL_HIDDEN, versionedRowShape } from './versioned';
import { textOrNull } from '../fields';
import { CODE_PAIRED, codePaired, codedInputShape, codedRowShape } from './coded';
import { CONDITION_PATTERN, choice, day, notBefore, optionalDate, optionalDay, requiredDate, requiredText, type Now } from './fields';
import { ICD10_SYSTEM } from '../code-systems';
import { defineKind } from './kind-contract';

export const DIAGNOSIS_STATUSES = ['Active', 'Resolved', 'Chronic'] as const;
export type DiagnosisStatus = (typeof DIAGNOSIS_STATUSES)[number];
/** SPEC §5 limits of a condition's name. */
export const CONDITION_LENGTH = { min: 2, max: 200 } as const;

const input = (now: Now) =>
  z
    .strictObject({
      condition: requiredText(CONDITION_LENGTH.max, 'validation:conditionRequired')
        .min(CONDITION_LENGTH.min, { error: 'validation:conditionLength' })
        .regex(CONDITION_PATTERN, { error: 'validation:conditionCharacters' }),
      ...codedInputShape,
      status: choice(DIAGNOSIS_STATUSES, 'validation:statusRequired'),
      diagnosedDate: requiredDate(now, 'validation:dateRequired', 'past'),
      resolvedDate: optionalDate(now, 'past'),
      description: textOrNull(2000),
      doctor: requiredText(200, 'validation:doctorRequired'),
      facility: requiredText(200, 'validation:facilityRequired'),
    })
    .refine(codePaired, CODE_PAIRED)
    .refine((v) => notBefore(v.resolvedDate, v.diagnosedDate), { error: 'validation:resolvedBeforeDiagnosed', path: ['resolvedDate'] });

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  ...versionedRowShape,
  condition: z.string(),
  ...codedRowShape,
  status: z.string(),
  diagnosedDate: day,
  resolvedDate: optionalDay,
  description: z.string().nullable(),
  doctor: z.string(),
  facility: z.string(),
});

/** A diagnosis still being treated: Active, or Chronic (a chronic condition is an active one). */
export const isActiveCondition = (d: { status: string }): boolean => d.status === 'Active' || d.status === 'Chronic';

const portalRow = row.omit({ patientId: true, ...PORTAL_HIDDEN });

export const diagnoses = defineKind({
  kind: 'diagnoses',
  resourceType: 'DIAGNOSIS',
  notFound: 'Diagnosis not found',
  input,
  row,
  order: ['diagnosedDate', 'id'],
  coded: { field: 'condition', systems: [ICD10_SYSTEM] },
  portal: { row: portalRow, from: ({ patientId: _p, ...d }) => d },
  dashboard: {
    counters: [{ key: 'activeConditions', position: 1, count: (rows) => rows.filter(isActiveCondition).length }],
  },
});
export type DiagnosisRow = z.infer<typeof row>;
