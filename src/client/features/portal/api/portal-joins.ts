import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { PortalJoinReport, PortalJoins } from '../../../../contracts/portal-joins';
import { apiJson } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/api-error';
import { urlKey } from '../../../lib/query-keys';

const joinsKey = urlKey('/api/patient-portal/joins');

/** GET /api/patient-portal/joins (decision 048): the patient's records joined into one. */
export const portalJoinsQueryOptions = queryOptions<PortalJoins>({ queryKey: joinsKey, retry: retryUnlessRefused });

/** POST /api/patient-portal/joins/{id}/report: the patient says a join is wrong (a privacy-review case, once). */
export function useReportPortalJoin(): UseMutationResult<PortalJoinReport, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (joinId: number) => apiJson<PortalJoinReport>('POST', `/api/patient-portal/joins/${joinId}/report`),
    retry: false,
    onSuccess: (_report, joinId) =>
      queryClient.setQueryData<PortalJoins>(joinsKey, (old) =>
        old ? { items: old.items.map((j) => (j.id === joinId ? { ...j, reported: true } : j)) } : old,
      ),
  });
}
