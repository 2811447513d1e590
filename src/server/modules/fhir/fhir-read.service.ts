// Reads and searches of the FHIR API over the existing services (issue 14 item 2): each call is the same service call
// the staff API makes, so the permission, the live access grant and the audit row hold unchanged.
import { readImmunizationRecommendation } from '../immunization/immunization-fhir.service';
import type { AuditLogQueryInput } from '../../../contracts/audit';
import { AGE_MAX } from '../../../contracts/constants';
import { ageOn, todayIso } from '../../../contracts/calendar';
import { dateTest, rangeOf } from '../../fhir/date-search';
import { normalizeName } from '../patients/name-normalize';
import { patientSearchInput, type PatientSearchInput, type PatientSearchResult } from '../../../contracts/patients';
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import type { RecordKind } from '../../../contracts/kinds';
import type { Config } from '../../config';
import type { StaffActor } from '../../context/actor';
import type { GatedScope } from '../../context/data-context';
import { AppError, validationFailed } from '../../errors/app-error';
import { readPatient } from '../access/access.service';
import { readAuditLogs } from '../audit/audit.service';
import { searchRecorded } from '../patients/registry.service';
import { listRecordItems, readRecordItem } from '../records/records.service';
import { auditEventBundle, auditWindowOf, AUDIT_EVENT_PARAMS } from './fhir-audit-event';
import { searchset, type SearchEntry } from './fhir-bundle';
import { NC_NUMBER_SYSTEM, patientResource, type FhirResource } from '../../fhir/resources';
import { kindsOf } from './fhir-kinds';
import { withMeta } from '../../fhir/resource-meta';
import { patientsUpdatedAt } from './fhir-patient-updated.repository';
import { parseSearch, patientParam, type ParsedSearch } from './fhir-search-params';
import {
  applySearch,
  compileSearch,
  ignoredOutcome,
  repeatableParamsOf,
  semanticParamsOf,
  shapeOf,
  type CompiledSearch,
  type Found,
  type SemanticsOptions,
} from './fhir-search-semantics';
import { unsupported } from '../../fhir/unsupported';

/** The FHIR request's scope with its gate (request.gatedScope, decision 059). */
export type FhirScope = GatedScope<StaffActor>;

/** Where the request came in: the base of absolute URLs in Bundles. */
export interface FhirCall {
  scope: FhirScope;
  base: string;
  /** The query string, without '?'. */
  query: string;
  /** `Prefer: handling=lenient`: unknown search parameters are ignored and said, not refused. */
  lenient?: boolean;
}

/** Parses and checks a search of `type`: its own parameters and the standard ones (fhir-search-semantics.ts). */
function parseTyped(
  call: Pick<FhirCall, 'query' | 'lenient'>,
  type: string,
  own: readonly string[],
  options: SemanticsOptions,
): { parsed: ParsedSearch; compiled: CompiledSearch } {
  const names = [...own, ...semanticParamsOf(type, options).map((p) => p.name)];
  const parsed = parseSearch(call.query, names, { lenient: call.lenient ?? false, repeatable: repeatableParamsOf(type) });
  return { parsed, compiled: compileSearch(type, parsed, options) };
}

/** The searchset of what a search found: kept, sorted, paged, shaped, with its includes and lenient outcome. */
function bundleOf(
  call: FhirCall,
  path: string,
  { parsed, compiled }: { parsed: ParsedSearch; compiled: CompiledSearch },
  found: Found[],
  included?: (page: SearchEntry[]) => SearchEntry[],
): FhirResource {
  const kept = applySearch(found, compiled);
  return searchset(
    call.base,
    path,
    parsed.params,
    kept.map((f) => ({ resource: f.resource })),
    parsed.page,
    {
      countOnly: compiled.summary === 'count',
      shape: (r) => shapeOf(r, compiled),
      outcome: ignoredOutcome(parsed.ignored),
      ...(included ? { included } : {}),
    },
  );
}

/** The control parameters a Patient search may add to its criteria (they are not criteria of the staff search). */
const PATIENT_CONTROLS = { include: false, filterDates: false } as const;

const resourceNotFound = (type: string, id: string): AppError => new AppError('NOT_FOUND', `${type}/${id} not found`);

/**
 * GET Patient/{id}: the demographics, with a live grant (403 without), audited as VIEW PATIENT. Joined records
 * (decision 048) carry Patient.link: a record joined away is inactive with `replaced-by` the record it now belongs to
 * (read by a user who may open that one; 409 PATIENT_JOINED otherwise); a survivor lists `replaces` for each.
 */
export async function readPatientResource(scope: FhirScope, id: number): Promise<FhirResource> {
  const read = await readPatient(scope, id);
  // meta.lastUpdated: the patient's last change (decision 051's `_lastUpdated`); patients keep no version (decision 053).
  const resource = withMeta(patientResource(read), null, (await patientsUpdatedAt(scope.db, [read.id])).get(read.id));
  const link = (other: number, type: 'replaced-by' | 'replaces') => ({ other: { reference: `Patient/${other}` }, type });
  if (read.replacedBy) return { ...resource, active: false, link: [link(read.replacedBy.id, 'replaced-by')] };
  if (read.replaces?.length) return { ...resource, active: true, link: read.replaces.map((r) => link(r.id, 'replaces')) };
  return resource;
}

/** The patient's list of one kind; `patient=` naming a record joined away reads the record it now belongs to (decision 048). */
async function listOfPatient<K extends RecordKind>(
  scope: FhirScope,
  kind: K,
  patientId: number,
): Promise<{ patientId: number; rows: Awaited<ReturnType<typeof listRecordItems<K>>> }> {
  try {
    return { patientId, rows: await listRecordItems(scope, kind, patientId) };
  } catch (err) {
    const survivorId = err instanceof AppError && err.code === 'PATIENT_JOINED' ? err.details?.survivorId : undefined;
    if (typeof survivorId !== 'number') throw err;
    return { patientId: survivorId, rows: await listRecordItems(scope, kind, survivorId) };
  }
}

/** The ages (on `today`) of people born in the range a `birthdate` value with a prefix or a partial date covers. */
function agesOf(birthdate: string, today: string): { ageRangeMin: number; ageRangeMax: number } {
  const prefixed = /^[a-z]{2}/.test(birthdate);
  const prefix = prefixed ? birthdate.slice(0, 2) : 'eq';
  const range = rangeOf(prefixed ? birthdate.slice(2) : birthdate)!;
  const from = ['eq', 'ge'].includes(prefix) ? range.start : ['gt', 'sa'].includes(prefix) ? range.end : null;
  const before = ['eq', 'le'].includes(prefix) ? range.end : ['lt', 'eb'].includes(prefix) ? range.start : null;
  // A birth day in local time (UTC+2), as the dates are written.
  const day = (ms: number) =>
    new Date(Math.min(Math.max(ms, -62_135_596_800_000), 253_402_300_799_000) + 7_200_000).toISOString().slice(0, 10);
  const ageRangeMax = Math.min(AGE_MAX, from === null ? AGE_MAX : (ageOn(day(from), today) ?? 0));
  const ageRangeMin = Math.min(AGE_MAX, before === null ? 0 : (ageOn(day(before - 1), today) ?? 0));
  return { ageRangeMin, ageRangeMax: Math.max(ageRangeMin, ageRangeMax) };
}

interface PatientQuery {
  input: PatientSearchInput;
  /** Which of the staff search's results the FHIR search keeps (a birthdate with a prefix or a partial date). */
  keep: (p: PatientSearchResult) => boolean;
}

/**
 * The search of the staff API a FHIR Patient search stands for; 400 for any other combination. A `birthdate` with
 * a prefix or a partial date (issue 26 item 4) with `family` or `name` is the smart search over the ages it covers,
 * kept to the birth dates it names (and, with `family`, to that surname exactly, as the exact search is).
 */
function patientSearchOf(values: Map<string, string>, today: string): PatientQuery {
  const identifier = values.get('identifier');
  const family = values.get('family');
  const birthdate = values.get('birthdate');
  const name = values.get('name');
  let input: unknown;
  let keep: PatientQuery['keep'] = () => true;
  const exactDay = birthdate !== undefined && /^(?:eq)?\d{4}-\d{2}-\d{2}$/.test(birthdate);
  if (identifier !== undefined && values.size === 1) {
    const [system, value] = identifier.includes('|') ? identifier.split('|', 2) : [NC_NUMBER_SYSTEM, identifier];
    if (system !== NC_NUMBER_SYSTEM && system !== '') throw unsupported(`Unknown identifier system: ${system}`, 'identifier');
    input = { method: 'id-number', idNumber: value };
  } else if (family !== undefined && birthdate !== undefined && values.size === 2 && exactDay) {
    input = { method: 'name-dob', lastName: family, dateOfBirth: birthdate.replace(/^eq/, '') };
  } else if ((family !== undefined || name !== undefined) && birthdate !== undefined && values.size === 2) {
    const born = dateTest('birthdate', birthdate);
    input = {
      method: 'fuzzy-name',
      ...(family !== undefined ? { smartLastName: family } : { fullName: name }),
      ...agesOf(birthdate, today),
    };
    keep = (p) =>
      born(p.dateOfBirth ? rangeOf(p.dateOfBirth) : null) && (family === undefined || normalizeName(p.lastName) === normalizeName(family));
  } else if (name !== undefined && values.size === 1) {
    input = { method: 'fuzzy-name', fullName: name, ageRangeMin: 0, ageRangeMax: AGE_MAX };
  } else {
    throw unsupported('Search Patient by identifier, by family or name with birthdate, or by name');
  }
  const parsed = patientSearchInput.safeParse(input);
  if (!parsed.success) throw validationFailed(parsed.error.issues.map((i) => ({ path: String(i.path[0] ?? ''), message: i.message })));
  return { input: parsed.data, keep };
}

/** Runs a search as the staff API does: its SEARCH audit row and the volume alert check (searchRecorded). */
async function searchAsStaff(scope: FhirScope, input: PatientSearchInput): Promise<PatientSearchResult[]> {
  return searchRecorded(scope, input);
}

/**
 * Checks a Patient search before it counts against the user's search limit (a preValidation hook: the limit counts
 * in preHandler), so a refused search costs nothing; 400 like the search itself would answer.
 */
export function checkPatientSearch(call: FhirCall): void {
  patientSearchOf(criteriaOf(parseTyped(call, 'Patient', PATIENT_SEARCH_PARAMS, PATIENT_CONTROLS).parsed), todayIso(call.scope.now));
}

/** The staff search's criteria among a Patient search's values. */
const criteriaOf = (parsed: ParsedSearch): Map<string, string> =>
  new Map([...parsed.values].filter(([name]) => PATIENT_SEARCH_PARAMS.includes(name)));

const PATIENT_SEARCH_PARAMS = ['identifier', 'family', 'birthdate', 'name'];

/** GET Patient?identifier=|family=&birthdate=|name=: a searchset of patients (no grant needed, like the search screen). */
export async function searchPatientResources(config: Config, call: FhirCall): Promise<FhirResource> {
  const search = parseTyped(call, 'Patient', PATIENT_SEARCH_PARAMS, PATIENT_CONTROLS);
  const query = patientSearchOf(criteriaOf(search.parsed), todayIso(call.scope.now));
  const results = (await searchAsStaff(call.scope, query.input)).filter(query.keep);
  // Every match carries meta.lastUpdated (decision 053), which `_lastUpdated` also searches.
  const updated = await patientsUpdatedAt(
    call.scope.db,
    results.map((p) => p.id),
  );
  return bundleOf(
    call,
    'Patient',
    search,
    results.map((p) => {
      const lastUpdated = updated.get(p.id) ?? null;
      return { resource: withMeta(patientResource(p), null, lastUpdated), lastUpdated };
    }),
  );
}

/**
 * GET <Type>?patient=[&...]: the patient's resources of the type (live grant required), each kind's list audited
 * like the staff API's list; a kind the search's values rule out (another category) is not read at all.
 */
export async function searchClinical(call: FhirCall, type: FhirResourceType): Promise<FhirResource> {
  const kinds = kindsOf(type);
  const own = ['patient', ...kinds.flatMap((k) => k.fhir.search?.params.map((p) => p.name) ?? [])];
  const search = parseTyped(call, type, own, { include: true });
  const { values } = search.parsed;
  const patient = values.get('patient');
  if (patient === undefined) throw unsupported(`Search ${type} by patient`, 'patient');
  let patientId = patientParam(patient);
  const selected = kinds.map((k) => ({ k, keep: k.fhir.search ? k.fhir.search.select(values) : () => true }));
  const found: Found[] = [];
  for (const { k, keep } of selected) {
    if (keep === null) continue;
    const list = await listOfPatient(call.scope, k.kind, patientId);
    patientId = list.patientId;
    for (const row of list.rows) {
      const lastUpdated = (row as { updatedAt?: string | null }).updatedAt ?? null;
      for (const resource of k.resources(row)) if (keep(resource)) found.push({ resource, lastUpdated });
    }
  }
  // `_include=<Type>:patient`: the patient's Patient resource once, with a page that has matches (an audited read).
  let included: SearchEntry[] = [];
  if (search.compiled.includePatient && search.compiled.summary !== 'count') {
    const resource = await readPatientResource(call.scope, patientId);
    included = [{ resource: shapeOf(resource, { summary: null, elements: null }), search: { mode: 'include' } }];
  }
  return bundleOf(call, type, search, found, (page) => (page.length > 0 ? included : []));
}

/** GET <Type>/{id}: one resource (live grant for its patient required), audited as VIEW of its row; one entered in error too. */
export async function readClinical(scope: FhirScope, type: FhirResourceType, id: string): Promise<FhirResource> {
  for (const k of kindsOf(type)) {
    const rowId = k.fhir.rowId(id);
    if (rowId === null) continue;
    let row: unknown;
    try {
      row = await readRecordItem(scope, k.kind, rowId, { enteredInError: true });
    } catch (err) {
      if (err instanceof AppError && err.code === 'RECORD_ENTRY_NOT_FOUND') throw resourceNotFound(type, id);
      throw err;
    }
    const found = k.resources(row).find((r) => r.id === id);
    if (found) return found;
  }
  throw resourceNotFound(type, id);
}

/**
 * GET AuditEvent?patient=: who opened and changed the patient's record (audit.read), each page itself audited as VIEW
 * AUDIT_LOG. Newest first, paged by a cursor (the last row's id), not an offset, so the rows each page read adds
 * never shift the pages; no `total` (issue 26 item 6).
 */
export async function searchAuditEvents(call: FhirCall): Promise<FhirResource> {
  const search = parseTyped(call, 'AuditEvent', AUDIT_EVENT_PARAMS, { include: false, filterDates: false });
  const { values, page } = search.parsed;
  if (page.offset !== 0) throw unsupported('AuditEvent pages follow the next link (_cursor), not _offset', '_offset');
  if (search.compiled.compare) throw unsupported('AuditEvents are always newest first', '_sort');
  const patient = values.get('patient');
  if (patient === undefined) throw unsupported('Search AuditEvent by patient', 'patient');
  const cursor = values.get('_cursor');
  if (cursor !== undefined && !/^[1-9]\d{0,15}$/.test(cursor)) throw unsupported('_cursor comes from a next link', '_cursor');
  const window = auditWindowOf(search.parsed);
  const filters: AuditLogQueryInput = {
    patientId: String(patientParam(patient)),
    limit: String(page.count + 1),
    ...(cursor ? { beforeId: cursor } : {}),
  };
  const rows = window.empty ? [] : (await readAuditLogs(call.scope, filters, window)).entries;
  return auditEventBundle(call.base, search, rows, page.count, ignoredOutcome(search.parsed.ignored));
}

/** GET ImmunizationRecommendation?patient=: the patient's one recommendation resource (decision 044), grant-checked and audited. */
export async function searchImmunizationRecommendations(call: FhirCall): Promise<FhirResource> {
  const search = parseTyped(call, 'ImmunizationRecommendation', ['patient'], { include: false });
  const patient = search.parsed.values.get('patient');
  if (patient === undefined) throw unsupported('Search ImmunizationRecommendation by patient', 'patient');
  const resource = await readImmunizationRecommendation(call.scope, patientParam(patient));
  // Worked out from the schedule at the read: it is as new as the read. With no dose to recommend there is no
  // resource (R4 needs at least one recommendation): the search finds none.
  const now = call.scope.now.toISOString();
  const found =
    Array.isArray(resource.recommendation) && resource.recommendation.length > 0
      ? [{ resource: withMeta(resource, null, now), lastUpdated: now }]
      : [];
  return bundleOf(call, 'ImmunizationRecommendation', search, found);
}
