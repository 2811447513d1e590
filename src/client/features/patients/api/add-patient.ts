import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { AddPatientRequest, AddPatientResponse } from '../../../../contracts/patient-requests';
import type { PatientSummary } from '../../../../contracts/patients';
import { apiJson } from '../../../lib/api-client';
import { asApiError } from '../../../lib/api-error';

export type { AddPatientRequest };

/**
 * POST /api/admin/patients: the server generates the NC number and the portal activation code (answered once); a
 * likely duplicate answers 409 with the matches.
 */
export function useAddPatient(): UseMutationResult<AddPatientResponse, Error, AddPatientRequest> {
  return useMutation({
    mutationFn: (input: AddPatientRequest) => apiJson<AddPatientResponse>('POST', '/api/admin/patients', input),
    retry: false,
  });
}

/** The likely duplicates carried by a DUPLICATE_PATIENT answer, or null for any other error. */
export function duplicatesOf(error: unknown): PatientSummary[] | null {
  const apiError = asApiError(error);
  const duplicates = apiError?.details.duplicates;
  return apiError?.code === 'DUPLICATE_PATIENT' && Array.isArray(duplicates) ? (duplicates as PatientSummary[]) : null;
}
