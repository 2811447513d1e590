// GET /api/medicine-checks/status (decision 043): whether the medicine checks can run. The medicines and allergies
// forms read it so they say "medicine checks are unavailable" before anyone relies on a check.
import { queryOptions, useQuery, type UseQueryResult } from '@tanstack/react-query';
import type { MedicineChecksStatus } from '../../../../contracts/medicine-checks';
import { urlKey } from '../../../lib/query-keys';

export const medicineChecksStatusQueryOptions = () =>
  queryOptions<MedicineChecksStatus>({ queryKey: urlKey('/api/medicine-checks/status'), staleTime: 60_000 });

export function useMedicineChecksStatus(enabled: boolean): UseQueryResult<MedicineChecksStatus> {
  return useQuery({ ...medicineChecksStatusQueryOptions(), enabled });
}
