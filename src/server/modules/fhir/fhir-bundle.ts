// Searchset Bundles (issue 14 item 2): `total`, and paging links that repeat the search with `_offset`.
import type { FhirResource } from '../../fhir/resources';

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 200;

export interface Page {
  count: number;
  offset: number;
}

export interface SearchEntry {
  resource: FhirResource;
  search?: { mode: 'match' | 'include'; score?: number; extension?: unknown[] };
}

/** The absolute URL of a resource or search on this server. */
export const absolute = (base: string, path: string): string => `${base}/${path}`;

function pageUrl(base: string, path: string, params: URLSearchParams, page: Page, offset: number): string {
  const query = new URLSearchParams(params);
  query.set('_count', String(page.count));
  query.set('_offset', String(offset));
  return `${absolute(base, path)}?${query.toString()}`;
}

/** One page of `all` as a searchset Bundle with total and self/first/previous/next/last links. */
export function searchset(base: string, path: string, params: URLSearchParams, all: SearchEntry[], page: Page): FhirResource {
  const total = all.length;
  const entries = all.slice(page.offset, page.offset + page.count);
  const link = [{ relation: 'self', url: pageUrl(base, path, params, page, page.offset) }];
  link.push({ relation: 'first', url: pageUrl(base, path, params, page, 0) });
  if (page.offset > 0) link.push({ relation: 'previous', url: pageUrl(base, path, params, page, Math.max(0, page.offset - page.count)) });
  if (page.offset + page.count < total) link.push({ relation: 'next', url: pageUrl(base, path, params, page, page.offset + page.count) });
  const lastOffset = total === 0 ? 0 : Math.floor((total - 1) / page.count) * page.count;
  link.push({ relation: 'last', url: pageUrl(base, path, params, page, lastOffset) });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total,
    link,
    entry: entries.map((e) => ({
      fullUrl: absolute(base, `${e.resource.resourceType}/${e.resource.id}`),
      resource: e.resource,
      search: e.search ?? { mode: 'match' },
    })),
  };
}
