import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { AuditLogEntry, ComplianceReport, GenerateReportInput } from '../../../../contracts/audit';

/** Filters as the form holds them: strings, '' or 'all' meaning no filter. */
export type FilterParams = Record<string, string>;
import { apiJson } from '../../../lib/api-client';

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
  queryOptions<ComplianceReport[]>({
    queryKey: [`/api/compliance-reports${toQueryString(filters)}`],
    staleTime: 0,
  });

export function useGenerateReport(): UseMutationResult<ComplianceReport, Error, GenerateReportInput> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GenerateReportInput) => apiJson<ComplianceReport>('POST', '/api/compliance-reports/generate', input),
    retry: false,
    onSuccess: () =>
      queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/api/compliance-reports') }),
  });
}
