// The immunization schedule's versions (issue 25 item 1, decision 044): the list an administrator sees, and loading
// a new version from a file (which refreshes the list).
import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { ScheduleVersionRow } from '../../../../contracts/immunization';
import { apiJson } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/api-error';
import { urlKey } from '../../../lib/query-keys';

const URL = '/api/immunization-schedules';

export const scheduleVersionsQueryOptions = queryOptions<ScheduleVersionRow[]>({
  queryKey: urlKey(URL),
  retry: retryUnlessRefused,
  staleTime: 0,
});

/** POSTs the file's parsed JSON as it is: the server checks it whole and lists every problem. */
export function useLoadSchedule(): UseMutationResult<ScheduleVersionRow, Error, unknown> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (schedule: unknown) => apiJson<ScheduleVersionRow>('POST', URL, schedule),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: urlKey(URL) }),
  });
}
