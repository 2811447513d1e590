// Vaccines (SPEC §3, §5): a dose given, coded (CVX) when the vaccine is picked from the Namibian schedule's catalogue.
import { z } from 'zod';
import { PORTAL_HIDDEN, versionedRowShape } from './versioned';
import { textOrNull } from '../fields';
import { CODE_PAIRED, codePaired, codedInputShape, codedRowShape } from './coded';
import { day, optionalDate, optionalDay, requiredDate, requiredText, type Now } from './fields';
import { CVX_SYSTEM } from '../code-systems';
import { defineKind } from './kind-contract';

const input = (now: Now) =>
  z
    .strictObject({
      vaccine: requiredText(200, 'validation:vaccineNameRequired'),
      ...codedInputShape,
      date: requiredDate(now, 'validation:dateRequired', 'past'),
      dose: requiredText(50, 'validation:doseRequired'),
      facility: requiredText(200, 'validation:facilityRequired'),
      nextDue: optionalDate(now, 'any'),
      batchNumber: textOrNull(64),
    })
    .refine(codePaired, CODE_PAIRED);

const row = z.object({
  id: z.number().int(),
  patientId: z.number().int(),
  ...versionedRowShape,
  vaccine: z.string(),
  ...codedRowShape,
  date: day,
  dose: z.string(),
  facility: z.string(),
  nextDue: optionalDay,
  batchNumber: z.string().nullable(),
});

export const vaccines = defineKind({
  kind: 'vaccines',
  resourceType: 'VACCINE',
  notFound: 'Vaccine record not found',
  input,
  row,
  order: ['date', 'id'],
  coded: { field: 'vaccine', systems: [CVX_SYSTEM] },
  portal: { row: row.omit({ patientId: true, ...PORTAL_HIDDEN }), from: ({ patientId: _p, ...v }) => v },
});
export type VaccineRow = z.infer<typeof row>;
