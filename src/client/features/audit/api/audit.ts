import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { AuditLogEntry, ComplianceReport, ComplianceReportSummary, GenerateReportInput } from '../../../../contracts/audit';

/** Filters as the form holds them: strings, '' or 'all' meaning no filter. */
export type FilterParams = Record<string, string>;
import { apiJson, apiRequest } from '../../../lib/api-client';

/** Builds a query string, leaving out empty values ('all' is sent as chosen: SPEC §7). */
export function toQueryString(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const auditLogsQueryOptions = (filters: FilterParams) =>
  queryOptions<AuditLogEntry[]>({
    queryKey: [`/api/audit-logs${toQueryString({ ...filters, limit: 100 })}`],
    staleTime: 0,
  });

export const reportsQueryOptions = (filters: FilterParams) =>
  queryOptions<ComplianceReportSummary[]>({
    queryKey: [`/api/compliance-reports${toQueryString(filters)}`],
    staleTime: 0,
  });

export function useGenerateReport(): UseMutationResult<ComplianceReport, Error, GenerateReportInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GenerateReportInput) => apiJson<ComplianceReport>('POST', '/api/compliance-reports/generate', input),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/api/compliance-reports') }),
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
    onSuccess: () => queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/api/compliance-reports') }),
  });
}
