// POST Patient/$match (issue 26 item 8; decision 051): candidates graded honestly. `certain` only when the NC number
// agrees, or both names, the date of birth and the sex agree exactly; otherwise the duplicate matcher's own score
// (duplicates/match-scoring.ts scorePair, its candidates by blocking key) and its configured bands: "very likely" is
// `probable`, "possible" is `possible`, below that is no match. A birth year with two digits swapped (1987 for 1978)
// is a slip the matcher scores like one digit off, so such a record is still found. Without a date of birth no score
// reaches a band: only records whose names agree exactly are offered, as possible.
import type { PatientSearchResult } from '../../../contracts/patients';
import { ageOn, todayIso } from '../../../contracts/calendar';
import { AGE_MAX } from '../../../contracts/constants';
import type { Config } from '../../config';
import { actorRoleAtTheTime } from '../../context/actor';
import { inAuditedTransaction } from '../../context/data-context';
import { validationFailed } from '../../errors/app-error';
import { NC_NUMBER_SYSTEM, patientResource, type FhirResource } from '../../fhir/resources';
import { SCORE_SCALE, type PairScore } from '../duplicates/match-scoring';
import { searchRecorded } from '../patients/registry.service';
import { normalizeName } from '../patients/name-normalize';
import { scoredMatchesOf } from '../patients/patients.service';
import { noteSearchVolume } from '../privacy/alerts.service';
import { searchset, type SearchEntry } from './fhir-bundle';
import type { FhirCall } from './fhir-read.service';

const MATCH_GRADE_URL = 'http://hl7.org/fhir/StructureDefinition/match-grade';
type Grade = 'certain' | 'probable' | 'possible';

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
const SEX: Record<string, string> = { male: 'Male', female: 'Female', other: 'Other' };

interface MatchQuery {
  ncNumber: string | null;
  person: {
    firstName: string;
    lastName: string;
    dateOfBirth: string | null;
    sex: string;
    address: string;
    contactNumber: string | null;
  } | null;
}

/** What a $match Patient says: its NC number, and the person the matcher compares (both names needed). */
function matchQueryOf(patient: Record<string, unknown>, today: string): MatchQuery {
  const issue = (path: string, message: string) => validationFailed([{ path: `Patient.${path}`, message }]);
  const identifiers = (Array.isArray(patient.identifier) ? patient.identifier : []) as { system?: unknown; value?: unknown }[];
  const nc = identifiers.find((i) => i.system === NC_NUMBER_SYSTEM && typeof i.value === 'string');
  const ncNumber = typeof nc?.value === 'string' && /^\d{11}$/.test(nc.value) ? nc.value : null;
  if (nc && !ncNumber) throw issue('identifier', 'An NC number is 11 digits');
  const name = ((Array.isArray(patient.name) ? patient.name : []) as { given?: unknown; family?: unknown; text?: unknown }[])[0];
  let firstName = strings(name?.given).join(' ').trim();
  let lastName = typeof name?.family === 'string' ? name.family.trim() : '';
  if ((!firstName || !lastName) && typeof name?.text === 'string') {
    const words = name.text.trim().split(/\s+/);
    lastName = words.length > 1 ? words.pop()! : '';
    firstName = words.join(' ');
  }
  const birthDate = typeof patient.birthDate === 'string' ? patient.birthDate : null;
  if (birthDate !== null && (!/^\d{4}-\d{2}-\d{2}$/.test(birthDate) || ageOn(birthDate, today) === null || birthDate > today))
    throw issue('birthDate', 'A date of birth (YYYY-MM-DD), not in the future');
  if (firstName.length > 100 || lastName.length > 100) throw issue('name', 'A name of at most 100 characters');
  const address = ((Array.isArray(patient.address) ? patient.address : []) as { text?: unknown; city?: unknown }[])[0];
  const phone = ((Array.isArray(patient.telecom) ? patient.telecom : []) as { system?: unknown; value?: unknown }[]).find(
    (t) => t.system === 'phone' && typeof t.value === 'string',
  );
  const person =
    firstName && lastName
      ? {
          firstName,
          lastName,
          dateOfBirth: birthDate,
          sex: SEX[typeof patient.gender === 'string' ? patient.gender : ''] ?? '',
          address: (typeof address?.text === 'string' ? address.text : typeof address?.city === 'string' ? address.city : '').slice(0, 300),
          contactNumber: typeof phone?.value === 'string' ? phone.value.slice(0, 32) : null,
        }
      : null;
  if (!ncNumber && !person) throw issue('name', 'Give the NC number, or the given and family names');
  return { ncNumber, person };
}

/** The same check before the search counts against the user's limit. */
export function checkMatch(body: unknown, now: Date): void {
  matchQueryOf(matchParametersOf(body).resource, todayIso(now));
}

/** `certain` only when every name, the date of birth and the sex agree exactly; else the matcher's band. */
function gradeOf(s: PairScore & { band: 'very-likely' | 'possible' }): Grade {
  const agrees = (field: string, agreement: string) => s.reasons.some((r) => r.field === field && r.agreement === agreement);
  if (agrees('firstName', 'exact') && agrees('lastName', 'exact') && agrees('dateOfBirth', 'exact') && agrees('sex', 'same'))
    return 'certain';
  return s.band === 'very-likely' ? 'probable' : 'possible';
}

const entryOf = (p: PatientSearchResult, score: number, grade: Grade): SearchEntry => ({
  resource: patientResource(p),
  search: { mode: 'match', score, extension: [{ url: MATCH_GRADE_URL, valueCode: grade }] },
});

/** POST Patient/$match: the graded candidates, best first, each search audited as the staff search is. */
export async function matchPatients(config: Config, call: FhirCall, body: unknown): Promise<FhirResource> {
  const { resource, count, onlyCertainMatches } = matchParametersOf(body);
  const { scope } = call;
  const query = matchQueryOf(resource, todayIso(scope.now));
  let entries: SearchEntry[] = [];
  if (query.ncNumber) {
    const found = await searchRecorded(scope, { method: 'id-number', idNumber: query.ncNumber });
    entries = found.map((p) => entryOf(p, 1, 'certain'));
  }
  if (entries.length === 0 && query.person?.dateOfBirth) {
    const person = query.person;
    const results = await inAuditedTransaction(scope, async (ctx) => {
      const out = (await scoredMatchesOf(ctx.tx, person, config.match)).map(({ patient, match }) => ({
        summary: patient as PatientSearchResult,
        score: Math.round(Math.max(0, Math.min(1, match.score / SCORE_SCALE)) * 1000) / 1000,
        grade: gradeOf(match),
      }));
      return ctx.audited(out, {
        action: 'SEARCH',
        resourceType: 'PATIENT',
        patientId: out.length === 1 ? out[0]!.summary.id : null,
        newValues: {
          criteria: { method: 'fhir-match', sex: person.sex !== '', address: person.address !== '' },
          results: out.length,
          patientIds: out.map((r) => r.summary.id),
          role: actorRoleAtTheTime(scope.actor),
        },
      });
    });
    await noteSearchVolume(
      scope.db,
      config.alerts,
      scope.actor,
      scope.meta,
      results.map((r) => r.summary.id),
    );
    entries = results.map((r) => entryOf(r.summary, r.score, r.grade));
  } else if (entries.length === 0 && query.person) {
    // No date of birth: no score reaches a band. The smart search by name (audited as the staff search), and only
    // records whose names agree exactly are offered, as possible (as the add-patient warning does without one).
    const { firstName, lastName } = query.person;
    const found = await searchRecorded(scope, {
      method: 'fuzzy-name',
      fullName: `${firstName} ${lastName}`,
      ageRangeMin: 0,
      ageRangeMax: AGE_MAX,
    });
    const same = (a: string, b: string) => normalizeName(a) === normalizeName(b);
    entries = found
      .filter((p) => same(p.firstName, firstName) && same(p.lastName, lastName))
      .map((p) => entryOf(p, Math.round((p.score ?? 0) * 1000) / 1000, 'possible'));
  }
  const kept = entries
    .filter((e) => !onlyCertainMatches || (e.search!.extension![0] as { valueCode: string }).valueCode === 'certain')
    .slice(0, count);
  return searchset(call.base, 'Patient/$match', new URLSearchParams(), kept, { count: Math.max(count, 1), offset: 0 });
}
