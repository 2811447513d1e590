// Medications (SPEC §3, §5): a medicine, coded from the WHO ATC classification when picked from the catalogue.
import { z } from 'zod';
import { PORTAL_HIDDEN, versionedRowShape } from './versioned';
import { CODE_PAIRED, codePaired, codedInputShape, codedRowShape } from './coded';
import { choice, day, notBefore, optionalDate, optionalDay, requiredDate, requiredText, type Now } from './fields';
import { ATC_SYSTEM } from '../code-systems';
import { defineKind } from './kind-contract';

export const MEDICATION_STATUSES = ['Active', 'Discontinued', 'Completed'] as const;
export type MedicationStatus = (typeof MEDICATION_STATUSES)[number];
/** SPEC §5 limits. */
export const MEDICATION_LIMITS = { name: { min: 2, max: 100 }, dosage: { min: 1, max: 50 } } as const;

const input = (now: Now) =>
  z
    .strictObject({
      name: requiredText(MEDICATION_LIMITS.name.max, 'validation:medicationNameRequired').min(MEDICATION_LIMITS.name.min, {
        error: 'validation:medicationNameLength',
      }),
      ...codedInputShape,
      status: choice(MEDICATION_STATUSES, 'validation:statusRequired'),
      dosage: requiredText(MEDICATION_LIMITS.dosage.max, 'validation:dosageRequired'),
      frequency: requiredText(100, 'validation:frequencyRequired'),
      purpose: requiredText(200, 'validation:purposeRequired'),
      prescribedDate: requiredDate(now, 'validation:prescribedDateRequired', 'past'),
      discontinuedDate: optionalDate(now, 'past'),
      prescribedBy: requiredText(200, 'validation:prescribedByRequired'),
      nextReview: optionalDate(now, 'any'),
    })
    .refine(codePaired, CODE_PAIRED)
    .refine((v) => notBefore(v.discontinuedDate, v.prescribedDate), {
      error: 'validation:discontinuedBeforePrescribed',
      path: ['discontinuedDate'],
    });

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  ...versionedRowShape,
  name: z.string(),
  ...codedRowShape,
  dosage: z.string(),
  frequency: z.string(),
  purpose: z.string(),
  status: z.string(),
  prescribedDate: day,
  discontinuedDate: optionalDay,
  prescribedBy: z.string(),
  nextReview: optionalDay,
});

export const isCurrentMedication = (m: { status: string }): boolean => m.status === 'Active';
/** SPEC §9: the safety panel lists up to 3 active medications, most recently prescribed first. */
export const SAFETY_MEDICATIONS = 3;

/** SPEC §3: the portal shows the medication's name as `medication` and the prescriber as `doctor`. */
const portalRow = row
  .omit({ patientId: true, name: true, prescribedBy: true, ...PORTAL_HIDDEN })
  .extend({ medication: z.string(), doctor: z.string() });

export const medications = defineKind({
  kind: 'medications',
  resourceType: 'MEDICATION',
  notFound: 'Medication not found',
  input,
  row,
  order: ['prescribedDate', 'id'],
  coded: { field: 'name', systems: [ATC_SYSTEM] },
  portal: { row: portalRow, from: ({ patientId: _p, name, prescribedBy, ...m }) => ({ ...m, medication: name, doctor: prescribedBy }) },
  dashboard: {
    counters: [{ key: 'currentMedications', position: 2, count: (rows) => rows.filter(isCurrentMedication).length }],
    panels: [
      {
        panel: 'safety',
        empty: 'noSafety',
        position: 2.2,
        heading: 'currentMedications',
        rows: (rows) =>
          rows
            .filter(isCurrentMedication)
            .sort((a, b) => b.prescribedDate.localeCompare(a.prescribedDate) || b.id - a.id)
            .slice(0, SAFETY_MEDICATIONS),
      },
    ],
  },
});
export type MedicationRow = z.infer<typeof row>;
