import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { AccessLogPage, PortalRecord } from '../../../../contracts/portal';
import type { PortalAccessSummary } from '../../../../contracts/privacy-review';
import { retryUnlessRefused } from '../../../lib/api-error';
import { currentUserKey, underUrl, urlKey } from '../../../lib/query-keys';

export const PORTAL_RECORD_URL = '/api/patient-portal/me';

export const accessLogUrl = (page: number, pageSize: number): string => `/api/patient-portal/access-log?page=${page}&pageSize=${pageSize}`;

/** The portal's query keys: the URL of each GET (lib/query-keys.ts). */
export const portalKeys = {
  record: urlKey(PORTAL_RECORD_URL),
  accessLog: (page: number, pageSize: number) => urlKey(accessLogUrl(page, pageSize)),
  accessSummary: urlKey('/api/patient-portal/access-summary'),
  /** Everything cached for whoever is signed in: the portal's answers and the staff user. */
  signedIn: underUrl('/api/patient-portal/', currentUserKey[0]),
};

/** GET /api/patient-portal/me: the signed-in patient's record (the default query function fetches the key's URL). */
export const portalRecordQueryOptions = queryOptions<PortalRecord>({
  queryKey: portalKeys.record,
  retry: retryUnlessRefused,
});

/** GET /api/patient-portal/access-log: one page of who opened the record. Always fresh: it is the point of the page. */
export const accessLogQueryOptions = (page: number, pageSize: number) =>
  queryOptions<AccessLogPage>({
    queryKey: portalKeys.accessLog(page, pageSize),
    retry: retryUnlessRefused,
    staleTime: 0,
  });

/** GET /api/patient-portal/access-summary: how many emergency accesses still await a reviewer. Always fresh. */
export const accessSummaryQueryOptions = queryOptions<PortalAccessSummary>({
  queryKey: portalKeys.accessSummary,
  retry: retryUnlessRefused,
  staleTime: 0,
});

/** Forgets everything cached for a patient or a staff user: on patient sign-in and sign-out. */
export function forgetSignedInData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: portalKeys.signedIn });
}
