import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { AddPatientRequest } from '../../../../contracts/patient-requests';
import type { PatientDetails, PatientSummary } from '../../../../contracts/patients';
import { apiJson, parseApiError } from '../../../lib/api-client';

export type { AddPatientRequest };

/** POST /api/admin/patients: the server generates the NC number; a likely duplicate answers 409 with the matches. */
export function useAddPatient(): UseMutationResult<PatientDetails, Error, AddPatientRequest> {
  return useMutation({
    mutationFn: (input: AddPatientRequest) => apiJson<PatientDetails>('POST', '/api/admin/patients', input),
    retry: false,
  });
}

/** The likely duplicates carried by a 409 answer, or null for any other error. */
export function duplicatesOf(error: unknown): PatientSummary[] | null {
  const parsed = parseApiError(error);
  const body = parsed.body as { duplicates?: PatientSummary[] } | null;
  return parsed.status === 409 && Array.isArray(body?.duplicates) ? body.duplicates : null;
}
