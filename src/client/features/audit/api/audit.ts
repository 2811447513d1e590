import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import {
  REPORT_TOTAL_HEADER,
  type AuditLogEntry,
  type ComplianceReport,
  type ComplianceReportSummary,
  type GenerateReportInput,
} from '../../../../contracts/audit';
import type { MedicineReport } from '../../../../contracts/medicine-check-report';
import { apiJson, apiRequest } from '../../../lib/api-client';
import { toQueryString, underUrl, urlKey } from '../../../lib/query-keys';

/** Filters as the form holds them: strings, '' or 'all' meaning no filter. */
export type FilterParams = Record<string, string>;

/** Rows per page of the audit log on screen. */
export const AUDIT_PAGE_SIZE = 100;
/** Reports per page of the list on screen. */
export const REPORT_PAGE_SIZE = 50;

/** The audit feature's query keys: the URL of each GET (lib/query-keys.ts). */
export const auditKeys = {
  logs: (filters: FilterParams) => urlKey(`/api/audit-logs${toQueryString({ ...filters, limit: AUDIT_PAGE_SIZE })}`),
  reports: (filters: FilterParams, page: number) =>
    urlKey(`/api/compliance-reports${toQueryString({ ...filters, page, pageSize: REPORT_PAGE_SIZE })}`),
  /** The medicine checks' monthly report (decision 045). */
  medicineReport: (filters: FilterParams) => urlKey(`/api/medicine-checks/report${toQueryString(filters)}`),
  /** Every cached report list, whatever its filters. */
  allReports: underUrl('/api/compliance-reports'),
};

/** The medicine checks' monthly report: alerts shown, overridden and the reasons, per month and facility. */
export const medicineReportQueryOptions = (filters: FilterParams) =>
  queryOptions<MedicineReport>({ queryKey: auditKeys.medicineReport(filters), staleTime: 0 });

/**
 * The audit log, a page at a time: each further page is the rows older than the last one shown (beforeId), so the
 * reads audited meanwhile never shift what the user pages through.
 */
export const auditLogsQueryOptions = (filters: FilterParams) =>
  infiniteQueryOptions({
    queryKey: auditKeys.logs(filters),
    queryFn: ({ pageParam }) =>
      apiJson<AuditLogEntry[]>(
        'GET',
        `/api/audit-logs${toQueryString({ ...filters, limit: AUDIT_PAGE_SIZE, beforeId: pageParam ?? undefined })}`,
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => (last.length === AUDIT_PAGE_SIZE ? last[last.length - 1]!.id : null),
    staleTime: 0,
  });

/** One page of the report list and how many reports match the filters over all pages. */
export interface ReportPage {
  reports: ComplianceReportSummary[];
  total: number;
}

export const reportsQueryOptions = (filters: FilterParams, page: number) =>
  queryOptions<ReportPage>({
    queryKey: auditKeys.reports(filters, page),
    queryFn: async ({ queryKey }) => {
      const res = await apiRequest('GET', String(queryKey[0]));
      const reports = (await res.json()) as ComplianceReportSummary[];
      return { reports, total: Number(res.headers.get(REPORT_TOTAL_HEADER) ?? reports.length) };
    },
    staleTime: 0,
  });

export function useGenerateReport(): UseMutationResult<ComplianceReport, Error, GenerateReportInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GenerateReportInput) => apiJson<ComplianceReport>('POST', '/api/compliance-reports/generate', input),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: auditKeys.allReports }),
  });
}

/** The report's data (the list carries none): GET /api/compliance-reports/{id}/download. */
export async function fetchReportData(id: number): Promise<string> {
  return (await apiRequest('GET', `/api/compliance-reports/${id}/download`)).text();
}

/** Archives a report (hidden from the list, kept) or restores an archived one, and refreshes the lists. */
export function useSetReportArchived(): UseMutationResult<{ id: number; archived: boolean }, Error, { id: number; archived: boolean }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, archived }) =>
      apiJson<{ id: number; archived: boolean }>('POST', `/api/compliance-reports/${id}/${archived ? 'archive' : 'restore'}`, {}),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: auditKeys.allReports }),
  });
}
