// Patient search (SPEC §2, §4, §7, §9): identical searches within 5 minutes come from the cache.
import { queryOptions } from '@tanstack/react-query';
import type { PatientSearchInput, PatientSearchResult } from '../../../../contracts/patients';
import { apiJson } from '../../../lib/api-client';

export const SEARCH_CACHE_MS = 5 * 60 * 1000;
export const SEARCH_DEBOUNCE_MS = 300;

/** Removes empty-string, null and undefined fields (SPEC §5). */
export function withoutEmpty<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== null && v !== undefined)) as Partial<T>;
}

export interface SearchForm {
  method: 'name-dob' | 'id-number' | 'fuzzy-name';
  lastName: string;
  dateOfBirth: string;
  idNumber: string;
  firstName: string;
  smartLastName: string;
  address: string;
  ageRangeMin: string;
  ageRangeMax: string;
}

/** The request body of SPEC §7 for the chosen method (fuzzy: fullName joined from both names, plus address). */
export function searchPayload(form: SearchForm): Record<string, unknown> {
  if (form.method === 'name-dob')
    return withoutEmpty({ method: form.method, lastName: form.lastName.trim(), dateOfBirth: form.dateOfBirth });
  if (form.method === 'id-number') return withoutEmpty({ method: form.method, idNumber: form.idNumber.trim() });
  const fullName = `${form.firstName} ${form.smartLastName}`.trim();
  return withoutEmpty({
    method: form.method,
    fullName,
    address: form.address.trim(),
    ageRangeMin: form.ageRangeMin === '' ? undefined : Number(form.ageRangeMin),
    ageRangeMax: form.ageRangeMax === '' ? undefined : Number(form.ageRangeMax),
  });
}

/** The search's query keys: a POST, so the body is part of the key (identical searches share an answer). */
export const searchKeys = {
  search: (payload: PatientSearchInput) => ['/api/patients/search', payload] as const,
};

export const searchQueryOptions = (payload: PatientSearchInput) =>
  queryOptions<PatientSearchResult[]>({
    queryKey: searchKeys.search(payload),
    queryFn: () => apiJson<PatientSearchResult[]>('POST', '/api/patients/search', payload),
    staleTime: SEARCH_CACHE_MS,
    retry: false,
  });
