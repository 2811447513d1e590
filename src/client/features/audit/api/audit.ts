import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { AuditLogEntry, ComplianceReport, ComplianceReportSummary, GenerateReportInput } from '../../../../contracts/audit';

/** Filters as the form holds them: strings, '' or 'all' meaning no filter. */
export type FilterParams = Record<string, string>;
import { apiJson, apiRequest } from '../../../lib/api-client';
import { toQueryString, underUrl, urlKey } from '../../../lib/query-keys';

/** The audit feature's query keys: the URL of each GET (lib/query-keys.ts). */
export const auditKeys = {
  logs: (filters: FilterParams) => urlKey(`/api/audit-logs${toQueryString({ ...filters, limit: 100 })}`),
  reports: (filters: FilterParams) => urlKey(`/api/compliance-reports${toQueryString(filters)}`),
  /** Every cached report list, whatever its filters. */
  allReports: underUrl('/api/compliance-reports'),
};

export const auditLogsQueryOptions = (filters: FilterParams) =>
  queryOptions<AuditLogEntry[]>({
    queryKey: auditKeys.logs(filters),
    staleTime: 0,
  });

export const reportsQueryOptions = (filters: FilterParams) =>
  queryOptions<ComplianceReportSummary[]>({
    queryKey: auditKeys.reports(filters),
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

/** Archives a report (hidden from the list, kept) and refreshes the list. */
export function useArchiveReport(): UseMutationResult<{ id: number; archived: true }, Error, number> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiJson<{ id: number; archived: true }>('POST', `/api/compliance-reports/${id}/archive`, {}),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: auditKeys.allReports }),
  });
}
