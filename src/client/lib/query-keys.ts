// Query keys (decision 025, issue 15 item 5): every cached answer is keyed by the URL it was fetched from (the default
// query function GETs `queryKey[0]`), and each feature builds its keys in one factory (`recordKeys`, `auditKeys`, …)
// so a mutation invalidates exactly what the feature cached.
import type { Query } from '@tanstack/react-query';

/** The key of a GET answer: its URL. */
export const urlKey = (url: string) => [url] as const;

/** The signed-in staff user (GET /api/auth/user): read by the app shell, written by the profile after a save. */
export const currentUserKey = urlKey('/api/auth/user');

/** Matches every cached answer whose URL starts with `prefix` (a list with any filters, a detail under it). */
export const underUrl =
  (...prefixes: string[]) =>
  (query: Pick<Query, 'queryKey'>): boolean => {
    const url = String(query.queryKey[0]);
    return prefixes.some((prefix) => url.startsWith(prefix));
  };

/** Builds a query string, leaving out empty values ('all' is sent as chosen: SPEC §7). */
export function toQueryString(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const text = search.toString();
  return text ? `?${text}` : '';
}
