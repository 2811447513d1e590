// A patient's access history as FHIR AuditEvents (issue 14 item 2): one per audit row, who did what to which record.
// The entry's old and new values, as the audit log shows them (presented: decision 042, a shredded payload as
// { shredded: true }), travel as the entity's details, JSON text.
import type { AuditLogEntry } from '../../../contracts/audit';
import { DATE_PREFIXES, rangeOf } from '../../fhir/date-search';
import { patientReference, type FhirResource } from '../../fhir/resources';
import { unsupported } from '../../fhir/unsupported';
import { absolute } from './fhir-bundle';
import type { ParsedSearch } from './fhir-search-params';
import { shapeOf, type CompiledSearch } from './fhir-search-semantics';

const DCM = 'http://dicom.nema.org/resources/ontology/DCM';
const ACTION: Record<string, string> = { CREATE: 'C', VIEW: 'R', UPDATE: 'U', DELETE: 'D' };

/** entity.detail: each non-null value as JSON text (R4 AuditEvent.entity.detail, type + valueString). */
function details(e: AuditLogEntry): { type: string; valueString: string }[] {
  const out: { type: string; valueString: string }[] = [];
  for (const [type, value] of [
    ['oldValues', e.oldValues],
    ['newValues', e.newValues],
  ] as const) {
    if (value !== null && value !== undefined) out.push({ type, valueString: JSON.stringify(value) });
  }
  return out;
}

export function auditEventResource(e: AuditLogEntry): FhirResource {
  const detail = details(e);
  return {
    resourceType: 'AuditEvent',
    id: String(e.id),
    // An audit row never changes: its one version, recorded when it happened (decision 053).
    meta: { versionId: '1', lastUpdated: new Date(e.timestamp).toISOString() },
    type: { system: 'http://terminology.hl7.org/CodeSystem/audit-event-type', code: 'rest', display: 'RESTful Operation' },
    subtype: [{ system: 'urn:nhr:audit-action', code: e.action }],
    action: ACTION[e.action] ?? 'E',
    recorded: e.timestamp,
    outcome: '0',
    agent: [
      {
        type: { coding: [{ system: DCM, code: '110153', display: 'Source Role ID' }] },
        who: { identifier: { system: 'urn:nhr:user', value: e.userId }, display: e.userName },
        requestor: true,
        ...(e.ipAddress ? { network: { address: e.ipAddress, type: '2' } } : {}),
      },
    ],
    source: { ...(e.facility ? { site: e.facility } : {}), observer: { display: 'National Health Records' } },
    entity: [
      ...(e.patientId
        ? [{ what: patientReference(e.patientId), role: { system: 'http://terminology.hl7.org/CodeSystem/object-role', code: '1' } }]
        : []),
      {
        name: e.resourceType,
        ...(e.resourceId ? { description: `${e.resourceType} ${e.resourceId}` } : {}),
        ...(detail.length > 0 ? { detail } : {}),
      },
    ],
  };
}

/** AuditEvent's own parameters: the patient, and the cursor its next links carry (the last row a page showed). */
export const AUDIT_EVENT_PARAMS = ['patient', '_cursor'];

export interface AuditWindow {
  from?: Date;
  before?: Date;
  /** No row can match (the bounds cross). */
  empty: boolean;
}

/**
 * `date` and `_lastUpdated` (the same for an audit row: it never changes) as a time window read in the statement, so
 * the cursor's pages stay whole. A recorded time is an instant: ge/gt/sa bound it from below, le/lt/eb/eq from above
 * (eq from both); `ne` cannot be a window and is refused.
 */
export function auditWindowOf(parsed: ParsedSearch): AuditWindow {
  let from = -Infinity;
  let before = Infinity;
  for (const name of ['date', '_lastUpdated'])
    for (const value of parsed.all.get(name) ?? []) {
      const prefixed = /^[a-z]{2}/.test(value);
      const prefix = prefixed ? value.slice(0, 2) : 'eq';
      const range = rangeOf(prefixed ? value.slice(2) : value);
      if (!range || !(DATE_PREFIXES as readonly string[]).includes(prefix) || prefix === 'ne')
        throw unsupported(
          `Unsupported date: ${name}=${value} (YYYY, YYYY-MM, YYYY-MM-DD or a dateTime, prefix eq, lt, gt, le, ge, sa or eb)`,
          name,
        );
      if (prefix === 'ge' || prefix === 'eq') from = Math.max(from, range.start);
      if (prefix === 'gt' || prefix === 'sa') from = Math.max(from, range.end);
      if (prefix === 'le' || prefix === 'eq') before = Math.min(before, range.end);
      if (prefix === 'lt' || prefix === 'eb') before = Math.min(before, range.start);
    }
  return {
    ...(from > -Infinity ? { from: new Date(from) } : {}),
    ...(before < Infinity ? { before: new Date(before) } : {}),
    empty: from >= before,
  };
}

/**
 * One page of AuditEvents: `rows` is up to count + 1 rows newest first (one more tells that a next page exists).
 * No total: counting the trail would be a second read that the rows audited meanwhile make stale; the next link's
 * cursor (the last row shown) keeps each row on exactly one page.
 */
export function auditEventBundle(
  base: string,
  search: { parsed: ParsedSearch; compiled: CompiledSearch },
  rows: AuditLogEntry[],
  count: number,
  outcome: FhirResource | null,
): FhirResource {
  const page = rows.slice(0, count);
  const url = (cursor: string | null) => {
    const query = new URLSearchParams(search.parsed.params);
    query.delete('_cursor');
    query.set('_count', String(count));
    if (cursor) query.set('_cursor', cursor);
    return `${absolute(base, 'AuditEvent')}?${query.toString()}`;
  };
  const link = [
    { relation: 'self', url: url(search.parsed.values.get('_cursor') ?? null) },
    { relation: 'first', url: url(null) },
    ...(rows.length > count ? [{ relation: 'next', url: url(String(page[page.length - 1]!.id)) }] : []),
  ];
  const entry = [
    ...page.map((e) => {
      const resource = shapeOf(auditEventResource(e), search.compiled);
      return { fullUrl: absolute(base, `AuditEvent/${resource.id}`), resource, search: { mode: 'match' } };
    }),
    ...(outcome ? [{ resource: outcome, search: { mode: 'outcome' } }] : []),
  ];
  return { resourceType: 'Bundle', type: 'searchset', link, ...(entry.length > 0 ? { entry } : {}) };
}
