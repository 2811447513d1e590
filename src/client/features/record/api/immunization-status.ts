// A patient's immunization status (GET /api/patients/{id}/immunization-status, decision 044), and the portal
// patient's own. Read again whenever the record's vaccines list changes (an add, edit or entered in error).
import { queryOptions, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { ImmunizationStatus } from '../../../../contracts/immunization';
import { retryUnlessRefused } from '../../../lib/api-error';
import { urlKey } from '../../../lib/query-keys';

export const immunizationStatusUrl = (patientId: number | 'own'): string =>
  patientId === 'own' ? '/api/patient-portal/immunization-status' : `/api/patients/${patientId}/immunization-status`;

export const immunizationStatusQueryOptions = (patientId: number | 'own') =>
  queryOptions<ImmunizationStatus>({ queryKey: urlKey(immunizationStatusUrl(patientId)), retry: retryUnlessRefused, staleTime: 0 });

export function useImmunizationStatus(patientId: number | 'own'): UseQueryResult<ImmunizationStatus> {
  return useQuery(immunizationStatusQueryOptions(patientId));
}
