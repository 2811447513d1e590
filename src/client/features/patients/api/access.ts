import { useMutation, type UseMutationResult } from '@tanstack/react-query';
import type { RecordAccessInput } from '../../../../contracts/access';
import { apiJson } from '../../../lib/api-client';

/** POST /api/patients/{id}/access: an 8-hour grant, audited with consent or the stated reason. */
export function useGrantAccess(): UseMutationResult<unknown, Error, { patientId: number; body: RecordAccessInput }> {
  return useMutation({
    mutationFn: ({ patientId, body }) => apiJson<unknown>('POST', `/api/patients/${patientId}/access`, body),
    retry: false,
  });
}
