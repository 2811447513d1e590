import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AccessLogPage, PortalRecord } from '../../../../contracts/portal';
import type { PortalAccessSummary } from '../../../../contracts/privacy-review';
import { retryUnlessRefused } from '../../../lib/api-error';

export const PORTAL_RECORD_URL = '/api/patient-portal/me';

/** GET /api/patient-portal/me: the signed-in patient's record (the default query function fetches the key's URL). */
export const portalRecordQueryOptions = queryOptions<PortalRecord>({
  queryKey: [PORTAL_RECORD_URL],
  retry: retryUnlessRefused,
});

export const accessLogUrl = (page: number, pageSize: number): string => `/api/patient-portal/access-log?page=${page}&pageSize=${pageSize}`;

/** GET /api/patient-portal/access-log: one page of who opened the record. Always fresh: it is the point of the page. */
export const accessLogQueryOptions = (page: number, pageSize: number) =>
  queryOptions<AccessLogPage>({
    queryKey: [accessLogUrl(page, pageSize)],
    retry: retryUnlessRefused,
    staleTime: 0,
  });

/** GET /api/patient-portal/access-summary: how many emergency accesses still await a reviewer. Always fresh. */
export const accessSummaryQueryOptions = queryOptions<PortalAccessSummary>({
  queryKey: ['/api/patient-portal/access-summary'],
  retry: retryUnlessRefused,
  staleTime: 0,
});

/** Forgets everything cached for a patient or a staff user: on patient sign-in and sign-out. */
export function forgetSignedInData(queryClient: QueryClient): void {
  queryClient.removeQueries({
    predicate: (q) => {
      const key = String(q.queryKey[0]);
      return key.startsWith('/api/patient-portal/') || key === '/api/auth/user';
    },
  });
}
