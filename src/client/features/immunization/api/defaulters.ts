// GET /api/defaulters (issue 25 item 3, decision 044): the children of the signed-in nurse's or doctor's facility
// overdue for a dose due in a date range. Read when asked for (each read is audited as a search), never in the background.
import { queryOptions, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { DefaultersResponse } from '../../../../contracts/immunization';
import { retryUnlessRefused } from '../../../lib/api-error';
import { urlKey } from '../../../lib/query-keys';

export interface DefaultersCriteria {
  facility: string;
  from: string;
  to: string;
}

export const defaultersUrl = (c: DefaultersCriteria, format: 'json' | 'csv' = 'json'): string =>
  `/api/defaulters?${new URLSearchParams({ facility: c.facility, from: c.from, to: c.to, ...(format === 'csv' ? { format } : {}) }).toString()}`;

export const defaultersQueryOptions = (c: DefaultersCriteria) =>
  queryOptions<DefaultersResponse>({
    queryKey: urlKey(defaultersUrl(c)),
    retry: retryUnlessRefused,
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });

export function useDefaulters(criteria: DefaultersCriteria | null): UseQueryResult<DefaultersResponse> {
  return useQuery({ ...defaultersQueryOptions(criteria ?? { facility: '', from: '', to: '' }), enabled: criteria !== null });
}
