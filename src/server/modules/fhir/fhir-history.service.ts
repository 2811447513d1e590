// vread and history of a clinical resource (issue 26 item 3; decision 053), built on the versions of its row
// (decision 041): the row's history read of the records module (grant-checked, audited as VIEW naming the versions),
// each stored version turned into the resource it then was. A version that marked the row entered in error shows
// that status (resource-meta.ts); a version in which a reading had no such part (a blood pressure added later) has
// no such resource.
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import type { HistoryEntry } from '../../../contracts/record-versions';
import type { RecordKind } from '../../../contracts/kinds';
import { AppError } from '../../errors/app-error';
import { versionIdOf } from '../../fhir/resource-meta';
import type { FhirResource } from '../../fhir/resources';
import { unsupported } from '../../fhir/unsupported';
import { readItemHistory } from '../records/record-history.service';
import { kindsOf } from './fhir-kinds';
import type { FhirCall, FhirScope } from './fhir-read.service';

/** One version of the resource, with how it came to be. */
interface ResourceVersion {
  resource: FhirResource;
  action: HistoryEntry<RecordKind>['action'];
  at: string | null;
}

const notFound = (type: string, id: string): AppError => new AppError('NOT_FOUND', `${type}/${id} not found`);

/** Every version of one resource, oldest first: 404 for an id no kind of the type holds (or a withheld row). */
async function versionsOf(scope: FhirScope, type: FhirResourceType, id: string): Promise<ResourceVersion[]> {
  for (const k of kindsOf(type)) {
    const rowId = k.fhir.rowId(id);
    if (rowId === null) continue;
    let entries: HistoryEntry<RecordKind>[];
    try {
      entries = await readItemHistory(scope, k.kind, rowId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'RECORD_ENTRY_NOT_FOUND') continue;
      throw err;
    }
    const versions = entries.flatMap((e) => {
      // The stored row names its version; the entry's own number is the one that counts.
      const resource = k.resources({ ...(e.row as object), version: e.version }).find((r) => r.id === id);
      return resource ? [{ resource, action: e.action, at: e.at }] : [];
    });
    if (versions.length) return versions;
  }
  throw notFound(type, id);
}

/** A version id as we give them out (a positive integer); anything else names no version. */
const versionNumber = (vid: string): number | null => (/^[1-9]\d{0,8}$/.test(vid) ? Number(vid) : null);

/** GET <Type>/{id}/_history/{vid}: the resource as it was at that version (entered in error included); 404 otherwise. */
export async function readResourceVersion(scope: FhirScope, type: FhirResourceType, id: string, vid: string): Promise<FhirResource> {
  const wanted = versionNumber(vid);
  if (wanted === null) throw notFound(type, `${id}/_history/${vid}`);
  const found = (await versionsOf(scope, type, id)).find((v) => versionIdOf(v.resource) === String(wanted));
  if (!found) throw notFound(type, `${id}/_history/${vid}`);
  return found.resource;
}

/** The FHIR interaction each of our history actions was: entered in error is an update of the status, not a delete. */
const REQUEST: Record<ResourceVersion['action'], { method: 'POST' | 'PUT'; status: string }> = {
  created: { method: 'POST', status: '201 Created' },
  edited: { method: 'PUT', status: '200 OK' },
  'entered-in-error': { method: 'PUT', status: '200 OK' },
};

/**
 * GET <Type>/{id}/_history: a Bundle of type history, newest first, every version (entered in error included) with
 * the interaction that made it. A row keeps few versions, so the whole history is one page; history's own
 * parameters (_count, _since, _at) are refused, not ignored.
 */
export async function resourceHistory(call: FhirCall, type: FhirResourceType, id: string): Promise<FhirResource> {
  const given = [...new URLSearchParams(call.query).keys()];
  if (given.length) throw unsupported('The history of a resource takes no parameters', given[0]);
  const versions = (await versionsOf(call.scope, type, id)).reverse();
  const url = `${call.base}/${type}/${id}`;
  return {
    resourceType: 'Bundle',
    type: 'history',
    total: versions.length,
    link: [{ relation: 'self', url: `${url}/_history` }],
    entry: versions.map((v) => {
      const version = versionIdOf(v.resource);
      const lastModified = (v.resource.meta as { lastUpdated?: string }).lastUpdated;
      return {
        fullUrl: url,
        resource: v.resource,
        request: { method: REQUEST[v.action].method, url: REQUEST[v.action].method === 'POST' ? type : `${type}/${id}` },
        response: {
          status: REQUEST[v.action].status,
          etag: `W/"${version}"`,
          ...(v.at || lastModified ? { lastModified: new Date(v.at ?? lastModified!).toISOString() } : {}),
        },
      };
    }),
  };
}
