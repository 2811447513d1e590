// Searchset Bundles (issue 14 item 2): `total`, and paging links that repeat the search with `_offset`; the
// included resources of a page, the OperationOutcome of lenient handling and `_summary=count` (issue 26 item 4).
import type { FhirResource } from '../../fhir/resources';

export const DEFAULT_COUNT = 50;
export const MAX_COUNT = 200;

export interface Page {
  count: number;
  offset: number;
}

export interface SearchEntry {
  resource: FhirResource;
  search?: { mode: 'match' | 'include' | 'outcome'; score?: number; extension?: unknown[] };
}

export interface SearchsetExtras {
  /** The resources the page's matches include (search mode include): not counted in total. */
  included?: (page: SearchEntry[]) => SearchEntry[];
  /** What lenient handling left out (search mode outcome). */
  outcome?: FhirResource | null;
  /** `_summary=count`: the total only, no entries. */
  countOnly?: boolean;
  /** Each match as the search asks to see it (_summary, _elements). */
  shape?: (resource: FhirResource) => FhirResource;
}

const entryOf = (base: string, e: SearchEntry) => ({
  ...(e.resource.id ? { fullUrl: absolute(base, `${e.resource.resourceType}/${e.resource.id}`) } : {}),
  resource: e.resource,
  search: e.search ?? { mode: 'match' },
});

/** The absolute URL of a resource or search on this server. */
export const absolute = (base: string, path: string): string => `${base}/${path}`;

function pageUrl(base: string, path: string, params: URLSearchParams, page: Page, offset: number): string {
  const query = new URLSearchParams(params);
  query.set('_count', String(page.count));
  query.set('_offset', String(offset));
  return `${absolute(base, path)}?${query.toString()}`;
}

/** One page of `all` as a searchset Bundle with total and self/first/previous/next/last links. */
export function searchset(
  base: string,
  path: string,
  params: URLSearchParams,
  all: SearchEntry[],
  page: Page,
  extras: SearchsetExtras = {},
): FhirResource {
  const total = all.length;
  const shape = extras.shape ?? ((r: FhirResource) => r);
  const matches = extras.countOnly ? [] : all.slice(page.offset, page.offset + page.count);
  const entries = [
    ...matches.map((e) => ({ ...e, resource: shape(e.resource) })),
    ...(extras.included ? extras.included(matches) : []),
    ...(extras.outcome ? [{ resource: extras.outcome, search: { mode: 'outcome' as const } }] : []),
  ];
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
    ...(entries.length > 0 ? { entry: entries.map((e) => entryOf(base, e)) } : {}),
  };
}
