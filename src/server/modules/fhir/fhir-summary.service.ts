// The International Patient Summary, Patient/{id}/$summary (issue 14; issue 26 item 7; decision 053): one audited
// record open as an IPS document. Each section's narrative lists its entries (term, status, dates, dose or value) in
// the reader's language; active problems are the Problem list, resolved ones History of past illness; an empty
// section says there is no information (never "no known allergies"); appointments are not in it (no IPS section
// holds them). Also found by the patient's identifier, and by POST with a Parameters body, as the IPS operation is.
import { patientSearchInput } from '../../../contracts/patients';
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import type { Config } from '../../config';
import { AppError, validationFailed } from '../../errors/app-error';
import { preferredLanguage } from '../../http/accept-language';
import { IPS_LANGUAGES, IPS_TEXTS, type IpsLanguage, type IpsTexts } from '../../fhir/ips-texts';
import { first, obj, str } from '../../fhir/input';
import { withMeta } from '../../fhir/resource-meta';
import { NC_NUMBER_SYSTEM, patientResource, type FhirResource } from '../../fhir/resources';
import { unsupported } from '../../fhir/unsupported';
import { clientMayAccess } from '../api-clients/fhir-access';
import { searchRecorded } from '../patients/registry.service';
import { readRecordSummary } from '../records/records.service';
import { CLINICAL_TYPES } from './fhir-kinds';
import { patientsUpdatedAt } from './fhir-patient-updated.repository';
import type { FhirCall } from './fhir-read.service';

/** The IPS sections we fill, by LOINC code, in the document's order, with the words of each. */
const SECTIONS: { code: string; key: keyof IpsTexts['sections']; empty: keyof IpsTexts['noInformation'] }[] = [
  { code: '11450-4', key: 'problems', empty: 'problems' },
  { code: '11348-0', key: 'pastIllness', empty: 'pastIllness' },
  { code: '48765-2', key: 'allergies', empty: 'allergies' },
  { code: '10160-0', key: 'medications', empty: 'medications' },
  { code: '11369-6', key: 'immunizations', empty: 'other' },
  { code: '8716-3', key: 'vitals', empty: 'other' },
  { code: '30954-2', key: 'results', empty: 'other' },
];
const PROBLEMS = '11450-4';
const PAST_ILLNESS = '11348-0';
/** Clinical statuses of a Condition that is over: History of past illness, not the Problem list (IPS). */
const PAST = ['inactive', 'resolved', 'remission'];

/** The IPS section a resource belongs in: its kind's, except a Condition that is over. */
function sectionOf(resource: FhirResource, kindSection: string): string {
  if (kindSection !== PROBLEMS) return kindSection;
  return PAST.includes(str(first(obj(resource.clinicalStatus).coding).code) ?? '') ? PAST_ILLNESS : PROBLEMS;
}

/** The language of the summary: the patient's preferred one when the record holds it (it does not yet), else the request's. */
export const summaryLanguageOf = (acceptLanguage: string | string[] | undefined): IpsLanguage =>
  preferredLanguage(acceptLanguage, IPS_LANGUAGES);

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A date or instant as the reader sees it: the day, and the Namibian time (UTC+2) when the value has one. */
function shown(v: unknown): string {
  const s = str(v);
  if (!s) return '';
  if (s.length <= 10) return s;
  const t = new Date(s);
  return Number.isNaN(t.getTime()) ? s : new Date(t.getTime() + 7_200_000).toISOString().slice(0, 16).replace('T', ' ');
}

const textOf = (concept: unknown): string => str(obj(concept).text) ?? str(first(obj(concept).coding).display) ?? '';
const codeOf = (concept: unknown): string | undefined => str(first(obj(concept).coding).code);

/** A quantity as `value unit`. */
const amount = (q: unknown): string => {
  const v = obj(q);
  return typeof v.value === 'number' ? `${v.value}${(str(v.unit) ?? str(v.code)) ? ` ${str(v.unit) ?? str(v.code)}` : ''}` : '';
};

/** An Observation's value: its quantity, text or concept, or its components. */
function valueOf(r: FhirResource): string {
  const own = amount(r.valueQuantity) || str(r.valueString) || textOf(r.valueCodeableConcept);
  if (own) return own;
  const components = Array.isArray(r.component) ? r.component.map(obj) : [];
  return components
    .map((c) => `${textOf(c.code)}: ${amount(c.valueQuantity) || '-'}`)
    .filter(Boolean)
    .join('; ');
}

interface Line {
  term: string;
  status: string;
  dates: string;
  details: string;
}

/** One entry of a section as a line of its narrative. */
function lineOf(r: FhirResource, t: IpsTexts): Line {
  const word = (code: string | undefined): string => (code ? (t.codes[code] ?? code) : '');
  const span = (from: unknown, to: unknown): string =>
    [shown(from) ? `${t.since} ${shown(from)}` : '', shown(to) ? `${t.until} ${shown(to)}` : ''].filter(Boolean).join(' ');
  switch (r.resourceType) {
    case 'Condition':
      return {
        term: textOf(r.code),
        status: word(codeOf(r.clinicalStatus)),
        dates: span(r.onsetDateTime, r.abatementDateTime),
        details: '',
      };
    case 'AllergyIntolerance': {
      const reaction = first(r.reaction);
      const manifestation = textOf(first(reaction.manifestation));
      return {
        term: textOf(r.code),
        status: [word(codeOf(r.clinicalStatus)), word(str(r.criticality))].filter(Boolean).join(', '),
        dates: shown(r.recordedDate ?? r.onsetDateTime),
        details: manifestation
          ? `${t.reaction}: ${manifestation}${str(reaction.severity) ? ` (${word(str(reaction.severity))})` : ''}`
          : '',
      };
    }
    case 'MedicationStatement': {
      const period = obj(r.effectivePeriod);
      const dosage = str(first(r.dosage).text);
      return {
        term: textOf(r.medicationCodeableConcept),
        status: word(str(r.status)),
        dates: span(period.start ?? r.effectiveDateTime, period.end),
        details: dosage ? `${t.dose}: ${dosage}` : '',
      };
    }
    case 'Immunization': {
      const applied = first(r.protocolApplied);
      const dose =
        str(applied.doseNumberString) ?? (typeof applied.doseNumberPositiveInt === 'number' ? String(applied.doseNumberPositiveInt) : '');
      return {
        term: textOf(r.vaccineCode),
        status: word(str(r.status)),
        dates: shown(r.occurrenceDateTime),
        details: dose ? `${t.dose}: ${dose}` : '',
      };
    }
    default:
      return {
        term: textOf(r.code),
        status: word(str(r.status)),
        dates: shown(r.effectiveDateTime ?? obj(r.effectivePeriod).start ?? r.issued),
        details: r.resourceType === 'Observation' ? valueOf(r) : (str(r.conclusion) ?? ''),
      };
  }
}

const XHTML = 'http://www.w3.org/1999/xhtml';

/** A section's narrative: a table of its entries, or the one sentence an empty or withheld section says. */
function narrative(lines: Line[] | string, t: IpsTexts): string {
  if (typeof lines === 'string') return `<div xmlns="${XHTML}"><p>${escapeHtml(lines)}</p></div>`;
  const cell = (tag: 'td' | 'th', s: string) => `<${tag}>${escapeHtml(s)}</${tag}>`;
  const head = `<tr>${[t.columns.term, t.columns.status, t.columns.dates, t.columns.details].map((s) => cell('th', s)).join('')}</tr>`;
  const body = lines.map((l) => `<tr>${[l.term, l.status, l.dates, l.details].map((s) => cell('td', s)).join('')}</tr>`).join('');
  return `<div xmlns="${XHTML}"><table><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}

const EMPTY_REASON = 'http://terminology.hl7.org/CodeSystem/list-empty-reason';

/** GET Patient/{id}/$summary: an IPS document Bundle (Composition, the Patient and the record), one audited read. */
export async function patientSummary(call: FhirCall, patientId: number, language: IpsLanguage = 'en'): Promise<FhirResource> {
  const t = IPS_TEXTS[language];
  const summary = await readRecordSummary(call.scope, patientId);
  const updated = await patientsUpdatedAt(call.scope.db, [patientId]);
  const patient = withMeta(patientResource(summary.patient), null, updated.get(patientId));
  // A system client gets only the types its scopes allow (issue 21 item 4): a section it may not read is withheld.
  const mayRead = (type: FhirResourceType): boolean => clientMayAccess(call.scope.actor, type, 'read');
  const kinds = [...CLINICAL_TYPES.values()].flat().filter((k) => k.fhir.ips !== null);
  const bySection = new Map<string, { withheld: boolean; entries: FhirResource[] }>(
    SECTIONS.map((s) => [s.code, { withheld: false, entries: [] }]),
  );
  for (const k of kinds) {
    const code = k.fhir.ips!.code;
    if (!mayRead(k.fhir.type)) {
      for (const c of code === PROBLEMS ? [PROBLEMS, PAST_ILLNESS] : [code]) bySection.get(c)!.withheld = true;
      continue;
    }
    for (const row of summary[k.kind] as unknown[]) for (const r of k.resources(row)) bySection.get(sectionOf(r, code))?.entries.push(r);
  }
  // Sections no kind fills (none yet) are left out; the Problem list, allergies and medicines always stand (IPS).
  const filled = new Set(kinds.flatMap((k) => (k.fhir.ips!.code === PROBLEMS ? [PROBLEMS, PAST_ILLNESS] : [k.fhir.ips!.code])));
  const ref = (r: FhirResource) => ({ reference: `${r.resourceType}/${r.id}` });
  const sections = SECTIONS.filter((s) => filled.has(s.code)).map((s) => {
    const { withheld, entries } = bySection.get(s.code)!;
    const emptyReason = (code: 'unavailable' | 'withheld', text: string) => ({
      emptyReason: { coding: [{ system: EMPTY_REASON, code }], text },
    });
    return {
      title: t.sections[s.key],
      code: { coding: [{ system: 'http://loinc.org', code: s.code }] },
      text: {
        status: 'generated',
        div: narrative(withheld ? t.withheld : entries.length ? entries.map((r) => lineOf(r, t)) : t.noInformation[s.empty], t),
      },
      ...(withheld
        ? emptyReason('withheld', t.withheld)
        : entries.length
          ? { entry: entries.map(ref) }
          : emptyReason('unavailable', t.noInformation[s.empty])),
    };
  });
  const now = call.scope.now.toISOString();
  const composition: FhirResource = {
    resourceType: 'Composition',
    id: `summary-${patientId}`,
    meta: { lastUpdated: now },
    language,
    status: 'final',
    type: { coding: [{ system: 'http://loinc.org', code: '60591-5', display: 'Patient summary Document' }] },
    subject: { reference: `Patient/${patientId}` },
    date: now,
    author: [{ display: 'National Health Records' }],
    title: `${t.title}: ${summary.patient.firstName} ${summary.patient.lastName}`,
    section: sections,
  };
  const resources = SECTIONS.flatMap((s) => bySection.get(s.code)!.entries);
  const entry = [composition, patient, ...resources].map((resource) => ({
    fullUrl: `${call.base}/${resource.resourceType}/${resource.id}`,
    resource,
  }));
  return {
    resourceType: 'Bundle',
    id: `summary-${patientId}-${call.scope.now.getTime()}`,
    meta: { lastUpdated: now },
    identifier: { system: 'urn:ietf:rfc:3986', value: `urn:uuid:${crypto.randomUUID()}` },
    type: 'document',
    timestamp: now,
    entry,
  };
}

/** The IPS Bundle profile, the one `profile` a request may name. */
const IPS_BUNDLE = 'http://hl7.org/fhir/uv/ips/StructureDefinition/Bundle-uv-ips';

/** What a $summary request asks beyond the patient: the identifier (when the URL names no patient). */
export interface SummaryRequest {
  identifier: string | null;
}

function checkProfile(profile: string | undefined): void {
  if (profile !== undefined && profile !== IPS_BUNDLE) throw unsupported(`Only the IPS profile ${IPS_BUNDLE} is produced`, 'profile');
}

/**
 * GET Patient/$summary?identifier=system|value[&profile=], or GET Patient/{id}/$summary[?profile=]: 400 for any other
 * parameter, a repeated one, or a missing identifier (an identifier beside the id in the URL).
 */
export function summaryQueryOf(query: string, idInUrl = false): SummaryRequest {
  const params = new URLSearchParams(query);
  const allowed = idInUrl ? ['profile'] : ['identifier', 'profile'];
  for (const name of params.keys()) {
    if (!allowed.includes(name)) throw unsupported(`$summary takes ${allowed.join(' and ')}, not ${name}`, name);
    if (params.getAll(name).length > 1) throw unsupported(`${name} may be given once`, name);
  }
  checkProfile(params.get('profile') ?? undefined);
  if (idInUrl) return { identifier: null };
  const identifier = params.get('identifier');
  if (!identifier) throw unsupported('Name the patient: Patient/{id}/$summary or Patient/$summary?identifier=', 'identifier');
  return { identifier };
}

/**
 * POST Patient/$summary and Patient/{id}/$summary: a Parameters body with `identifier` (valueIdentifier, or a token
 * `system|value` as valueString; not beside an id in the URL) and an optional `profile`. 400 otherwise.
 */
export function summaryParametersOf(body: unknown, idInUrl: boolean): SummaryRequest {
  const b = obj(body);
  if (b.resourceType !== 'Parameters') throw validationFailed([{ path: 'resourceType', message: 'The body must be a Parameters' }]);
  const parameters = b.parameter === undefined ? [] : Array.isArray(b.parameter) ? b.parameter.map(obj) : null;
  if (parameters === null) throw validationFailed([{ path: 'Parameters.parameter', message: 'parameter must be a list' }]);
  let identifier: string | null = null;
  let profile: string | undefined;
  const seen = new Set<string>();
  for (const p of parameters) {
    const name = str(p.name) ?? '';
    if (seen.has(name)) throw unsupported(`${name} may be given once`, name);
    seen.add(name);
    if (name === 'identifier' && !idInUrl) {
      const id = obj(p.valueIdentifier);
      const token = str(p.valueString) ?? (str(id.value) !== undefined ? `${str(id.system) ?? ''}|${str(id.value)}` : undefined);
      if (token === undefined)
        throw validationFailed([{ path: 'Parameters.parameter.identifier', message: 'valueIdentifier is required' }]);
      identifier = token;
    } else if (name === 'profile') {
      profile = str(p.valueCanonical) ?? str(p.valueUri) ?? '';
    } else {
      throw unsupported(`$summary takes ${idInUrl ? 'profile' : 'identifier and profile'}, not ${name || 'a nameless parameter'}`, name);
    }
  }
  checkProfile(profile);
  if (!idInUrl && identifier === null)
    throw unsupported('Name the patient: Patient/{id}/$summary or an identifier parameter', 'identifier');
  return { identifier };
}

/** The patient an identifier names (an NC number, old ones included), found by the staff's audited search; 404 for none. */
export async function patientOfIdentifier(config: Config, call: FhirCall, identifier: string): Promise<number> {
  const [system, value] = identifier.includes('|') ? identifier.split('|', 2) : [NC_NUMBER_SYSTEM, identifier];
  if (system !== NC_NUMBER_SYSTEM && system !== '') throw unsupported(`Unknown identifier system: ${system}`, 'identifier');
  const parsed = patientSearchInput.safeParse({ method: 'id-number', idNumber: value });
  if (!parsed.success) throw validationFailed(parsed.error.issues.map((i) => ({ path: 'identifier', message: i.message })));
  const found = await searchRecorded(call.scope, parsed.data);
  if (found.length !== 1) throw new AppError('PATIENT_NOT_FOUND', 'No patient has this identifier');
  return found[0]!.id;
}
