// Request bodies of the patient registry routes that extend the shared schemas (SPEC §7; DESIGN.md §4).
import { z } from 'zod';
import { addPatientInput, patientDetails, patientSearchResult } from './patients';
import { portalActivation } from './portal';

/** POST /api/admin/patients: the SPEC fields, plus the confirmation that a likely duplicate is a new patient. */
export const addPatientRequest = addPatientInput.extend({ confirmDuplicate: z.boolean().optional() });
export type AddPatientRequest = z.input<typeof addPatientRequest>;

/** The 409 answer when likely duplicates exist and the request did not confirm. */
export const duplicatePatientsBody = z.object({
  message: z.string(),
  code: z.literal('DUPLICATE_PATIENT'),
  duplicates: z.array(patientSearchResult),
});

/** The new patient, and their portal activation code, answered once (decision 016). */
export const addPatientResponse = patientDetails.extend({ portalActivation });
export type AddPatientResponse = z.infer<typeof addPatientResponse>;
