// Reads and searches of the FHIR API over the existing services (issue 14 item 2): each call is the same service call
// the staff API makes, so the permission, the live access grant and the audit row hold unchanged.
import { readImmunizationRecommendation } from '../immunization/immunization-fhir.service';
import type { AuditLogQueryInput } from '../../../contracts/audit';
import { AGE_MAX } from '../../../contracts/constants';
import { ageOn, todayIso } from '../../../contracts/calendar';
import { patientSearchInput, type PatientSearchInput, type PatientSearchResult } from '../../../contracts/patients';
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import type { RecordKind } from '../../../contracts/kinds';
import type { Config } from '../../config';
import type { StaffActor } from '../../context/actor';
import type { RequestScope } from '../../context/data-context';
import { AppError, validationFailed } from '../../errors/app-error';
import { readPatient } from '../access/access.service';
import { clientMayAccess } from '../api-clients/fhir-access';
import { readAuditLogs } from '../audit/audit.service';
import { searchRecorded } from '../patients/registry.service';
import { listRecordItems, readRecordItem, readRecordSummary } from '../records/records.service';
import { auditEventResource } from './fhir-audit-event';
import { searchset, type SearchEntry } from './fhir-bundle';
import { NC_NUMBER_SYSTEM, patientResource, type FhirResource } from '../../fhir/resources';
import { CLINICAL_TYPES, kindsOf, searchParamsOf } from './fhir-kinds';
import { parseSearch, patientParam } from './fhir-search-params';
import { unsupported } from '../../fhir/unsupported';

export type FhirScope = RequestScope<StaffActor>;

/** Where the request came in: the base of absolute URLs in Bundles. */
export interface FhirCall {
  scope: FhirScope;
  base: string;
  /** The query string, without '?'. */
  query: string;
}

const resourceNotFound = (type: string, id: string): AppError => new AppError('NOT_FOUND', `${type}/${id} not found`);

/**
 * GET Patient/{id}: the demographics, with a live grant (403 without), audited as VIEW PATIENT. Joined records
 * (decision 048) carry Patient.link: a record joined away is inactive with `replaced-by` the record it now belongs to
 * (read by a user who may open that one; 409 PATIENT_JOINED otherwise); a survivor lists `replaces` for each.
 */
export async function readPatientResource(scope: FhirScope, id: number): Promise<FhirResource> {
  const read = await readPatient(scope, id);
  const resource = patientResource(read);
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

/** The search of the staff API a FHIR Patient search stands for; 400 for any other combination. */
function patientSearchOf(values: Map<string, string>): PatientSearchInput {
  const identifier = values.get('identifier');
  const family = values.get('family');
  const birthdate = values.get('birthdate');
  const name = values.get('name');
  let input: unknown;
  if (identifier !== undefined && values.size === 1) {
    const [system, value] = identifier.includes('|') ? identifier.split('|', 2) : [NC_NUMBER_SYSTEM, identifier];
    if (system !== NC_NUMBER_SYSTEM && system !== '') throw unsupported(`Unknown identifier system: ${system}`, 'identifier');
    input = { method: 'id-number', idNumber: value };
  } else if (family !== undefined && birthdate !== undefined && values.size === 2) {
    input = { method: 'name-dob', lastName: family, dateOfBirth: birthdate };
  } else if (name !== undefined && values.size === 1) {
    input = { method: 'fuzzy-name', fullName: name, ageRangeMin: 0, ageRangeMax: AGE_MAX };
  } else {
    throw unsupported('Search Patient by identifier, by family and birthdate together, or by name');
  }
  const parsed = patientSearchInput.safeParse(input);
  if (!parsed.success) throw validationFailed(parsed.error.issues.map((i) => ({ path: String(i.path[0] ?? ''), message: i.message })));
  return parsed.data;
}

/** Runs a search as the staff API does: its SEARCH audit row and the volume alert check (searchRecorded). */
async function searchAsStaff(config: Config, scope: FhirScope, input: PatientSearchInput): Promise<PatientSearchResult[]> {
  return searchRecorded(scope.db, input, scope.actor, scope.meta, config.alerts);
}

/**
 * Checks a Patient search before it counts against the user's search limit (a preValidation hook: the limit counts
 * in preHandler), so a refused search costs nothing; 400 like the search itself would answer.
 */
export function checkPatientSearch(query: string): void {
  patientSearchOf(parseSearch(query, PATIENT_SEARCH_PARAMS).values);
}

/** The same check for $match's Parameters body. */
export function checkMatch(body: unknown, now: Date): void {
  matchSearchOf(matchParametersOf(body).resource, todayIso(now));
}

const PATIENT_SEARCH_PARAMS = ['identifier', 'family', 'birthdate', 'name'];

/** GET Patient?identifier=|family=&birthdate=|name=: a searchset of patients (no grant needed, like the search screen). */
export async function searchPatientResources(config: Config, call: FhirCall): Promise<FhirResource> {
  const { values, page, params } = parseSearch(call.query, PATIENT_SEARCH_PARAMS);
  const results = await searchAsStaff(config, call.scope, patientSearchOf(values));
  return searchset(
    call.base,
    'Patient',
    params,
    results.map((p) => ({ resource: patientResource(p) })),
    page,
  );
}

const MATCH_GRADE_URL = 'http://hl7.org/fhir/StructureDefinition/match-grade';
const gradeOf = (score: number): 'certain' | 'probable' | 'possible' =>
  score >= 0.95 ? 'certain' : score >= 0.75 ? 'probable' : 'possible';

interface MatchParameters {
  resource: Record<string, unknown>;
  count: number;
  onlyCertainMatches: boolean;
}

function matchParametersOf(body: unknown): MatchParameters {
  const bad = (message: string) => validationFailed([{ path: 'parameter', message }], 'Invalid $match parameters');
  const b = body as { resourceType?: unknown; parameter?: unknown } | null;
  if (!b || b.resourceType !== 'Parameters' || !Array.isArray(b.parameter)) throw bad('Send a Parameters resource');
  let resource: Record<string, unknown> | null = null;
  let count = 10;
  let onlyCertainMatches = false;
  for (const p of b.parameter as Record<string, unknown>[]) {
    if (p?.name === 'resource' && (p.resource as { resourceType?: unknown })?.resourceType === 'Patient')
      resource = p.resource as Record<string, unknown>;
    else if (p?.name === 'count' && Number.isInteger(p.valueInteger) && (p.valueInteger as number) >= 1 && (p.valueInteger as number) <= 50)
      count = p.valueInteger as number;
    else if (p?.name === 'onlyCertainMatches' && typeof p.valueBoolean === 'boolean') onlyCertainMatches = p.valueBoolean;
    else throw bad(`Unsupported or invalid parameter: ${String(p?.name)}`);
  }
  if (!resource) throw bad('The resource parameter (a Patient) is required');
  return { resource, count, onlyCertainMatches };
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/** The staff search a $match Patient stands for: the NC number when given (exact), else the smart search. */
function matchSearchOf(patient: Record<string, unknown>, today: string): PatientSearchInput {
  const identifiers = (Array.isArray(patient.identifier) ? patient.identifier : []) as { system?: unknown; value?: unknown }[];
  const nc = identifiers.find((i) => i.system === NC_NUMBER_SYSTEM && typeof i.value === 'string');
  let input: unknown;
  if (nc) input = { method: 'id-number', idNumber: nc.value };
  else {
    const name = ((Array.isArray(patient.name) ? patient.name : []) as { given?: unknown; family?: unknown; text?: unknown }[])[0];
    const fullName = name
      ? typeof name.text === 'string'
        ? name.text
        : [...strings(name.given), typeof name.family === 'string' ? name.family : ''].join(' ').trim()
      : '';
    const address = ((Array.isArray(patient.address) ? patient.address : []) as { text?: unknown; city?: unknown }[])[0];
    const place = typeof address?.text === 'string' ? address.text : typeof address?.city === 'string' ? address.city : undefined;
    const birthDate = typeof patient.birthDate === 'string' ? patient.birthDate : null;
    const age = birthDate ? ageOn(birthDate, today) : null;
    input = {
      method: 'fuzzy-name',
      ...(fullName ? { fullName } : {}),
      ...(place ? { address: place } : {}),
      ...(age !== null
        ? { ageRangeMin: Math.max(0, age - 1), ageRangeMax: Math.min(AGE_MAX, age + 1) }
        : { ageRangeMin: 0, ageRangeMax: AGE_MAX }),
    };
  }
  const parsed = patientSearchInput.safeParse(input);
  if (!parsed.success)
    throw validationFailed(parsed.error.issues.map((i) => ({ path: `Patient.${String(i.path[0] ?? '')}`, message: i.message })));
  return parsed.data;
}

/** POST Patient/$match: candidates from the smart search with search.score and the match-grade extension. */
export async function matchPatients(config: Config, call: FhirCall, body: unknown): Promise<FhirResource> {
  const { resource, count, onlyCertainMatches } = matchParametersOf(body);
  const input = matchSearchOf(resource, todayIso(call.scope.now));
  const results = await searchAsStaff(config, call.scope, input);
  const entries: SearchEntry[] = results
    .map((p) => {
      const score = input.method === 'fuzzy-name' ? Math.round((p.score ?? 0) * 1000) / 1000 : 1;
      const grade = gradeOf(score);
      return {
        resource: patientResource(p),
        search: { mode: 'match' as const, score, extension: [{ url: MATCH_GRADE_URL, valueCode: grade }] },
      };
    })
    .filter((e) => !onlyCertainMatches || e.search.extension[0]!.valueCode === 'certain')
    .slice(0, count);
  return searchset(call.base, 'Patient/$match', new URLSearchParams(), entries, { count: Math.max(count, 1), offset: 0 });
}

/**
 * GET <Type>?patient=[&...]: the patient's resources of the type (live grant required), each kind's list audited
 * like the staff API's list; a kind the search's values rule out (another category) is not read at all.
 */
export async function searchClinical(call: FhirCall, type: FhirResourceType): Promise<FhirResource> {
  const { values, page, params } = parseSearch(call.query, ['patient', ...searchParamsOf(type).map((p) => p.name)]);
  const patient = values.get('patient');
  if (patient === undefined) throw unsupported(`Search ${type} by patient`, 'patient');
  let patientId = patientParam(patient);
  const selected = kindsOf(type).map((k) => ({ k, keep: k.fhir.search ? k.fhir.search.select(values) : () => true }));
  const resources: FhirResource[] = [];
  for (const { k, keep } of selected) {
    if (keep === null) continue;
    const list = await listOfPatient(call.scope, k.kind, patientId);
    patientId = list.patientId;
    resources.push(...list.rows.flatMap((row) => k.resources(row)).filter(keep));
  }
  return searchset(
    call.base,
    type,
    params,
    resources.map((resource) => ({ resource })),
    page,
  );
}

/** GET <Type>/{id}: one resource (live grant for its patient required), audited as VIEW of its row. */
export async function readClinical(scope: FhirScope, type: FhirResourceType, id: string): Promise<FhirResource> {
  for (const k of kindsOf(type)) {
    const rowId = k.fhir.rowId(id);
    if (rowId === null) continue;
    let row: unknown;
    try {
      row = await readRecordItem(scope, k.kind, rowId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'RECORD_ENTRY_NOT_FOUND') throw resourceNotFound(type, id);
      throw err;
    }
    const found = k.resources(row).find((r) => r.id === id);
    if (found) return found;
  }
  throw resourceNotFound(type, id);
}

/** GET AuditEvent?patient=: who opened and changed the patient's record (audit.read), itself audited as VIEW AUDIT_LOG. */
export async function searchAuditEvents(call: FhirCall): Promise<FhirResource> {
  const { values, page, params } = parseSearch(call.query, ['patient']);
  const patient = values.get('patient');
  if (patient === undefined) throw unsupported('Search AuditEvent by patient', 'patient');
  const filters: AuditLogQueryInput = { patientId: String(patientParam(patient)), limit: '1000' };
  const rows = await readAuditLogs(call.scope, filters);
  return searchset(
    call.base,
    'AuditEvent',
    params,
    rows.map((e) => ({ resource: auditEventResource(e) })),
    page,
  );
}

/** GET ImmunizationRecommendation?patient=: the patient's one recommendation resource (decision 044), grant-checked and audited. */
export async function searchImmunizationRecommendations(call: FhirCall): Promise<FhirResource> {
  const { values, page, params } = parseSearch(call.query, ['patient']);
  const patient = values.get('patient');
  if (patient === undefined) throw unsupported('Search ImmunizationRecommendation by patient', 'patient');
  const resource = await readImmunizationRecommendation(call.scope, patientParam(patient));
  return searchset(call.base, 'ImmunizationRecommendation', params, [{ resource }], page);
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** GET Patient/{id}/$summary: an International Patient Summary document (Composition + the record), one audited read. */
export async function patientSummary(call: FhirCall, patientId: number): Promise<FhirResource> {
  const summary = await readRecordSummary(call.scope, patientId);
  const patient = patientResource(summary.patient);
  // A system client gets only the types its scopes allow (issue 21 item 4): a section it may not read is withheld.
  const mayRead = (type: FhirResourceType): boolean => clientMayAccess(call.scope.actor, type, 'read');
  // One section per kind (its IPS section code and title), its resources from the record's lists.
  const kinds = [...CLINICAL_TYPES.values()].flat();
  const sections = kinds.map((k) => ({
    ...k.fhir.ips,
    withheld: !mayRead(k.fhir.type),
    entries: mayRead(k.fhir.type) ? (summary[k.kind] as unknown[]).flatMap((row) => k.resources(row)) : [],
  }));
  const resources = sections.flatMap((s) => s.entries);
  const ref = (r: FhirResource) => ({ reference: `${r.resourceType}/${r.id}` });
  const now = call.scope.now.toISOString();
  const emptyReason = (code: 'nilknown' | 'withheld') => ({
    emptyReason: { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/list-empty-reason', code }] },
  });
  const sectionsOut = sections.map((s) => {
    const text = s.withheld ? `${s.title}: withheld` : `${s.title}: ${s.entries.length} ${s.entries.length === 1 ? 'entry' : 'entries'}`;
    return {
      title: s.title,
      code: { coding: [{ system: 'http://loinc.org', code: s.code }] },
      text: { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml"><p>${escapeHtml(text)}</p></div>` },
      ...(s.withheld ? emptyReason('withheld') : s.entries.length ? { entry: s.entries.map(ref) } : emptyReason('nilknown')),
    };
  });
  const composition: FhirResource = {
    resourceType: 'Composition',
    id: `summary-${patientId}`,
    status: 'final',
    type: { coding: [{ system: 'http://loinc.org', code: '60591-5', display: 'Patient summary Document' }] },
    subject: { reference: `Patient/${patientId}` },
    date: now,
    author: [{ display: 'National Health Records' }],
    title: `Patient summary: ${summary.patient.firstName} ${summary.patient.lastName}`,
    section: sectionsOut,
  };
  const entry = [composition, patient, ...resources].map((resource) => ({
    fullUrl: `${call.base}/${resource.resourceType}/${resource.id}`,
    resource,
  }));
  return {
    resourceType: 'Bundle',
    id: `summary-${patientId}-${call.scope.now.getTime()}`,
    identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${crypto.randomUUID()}` },
    type: 'document',
    timestamp: now,
    entry,
  };
}
