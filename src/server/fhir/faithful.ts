// Faithful creates (issue 26 item 1, decision 049): a resource a FHIR client sends is stored as sent or refused. Each
// kind's mapping reads the elements it can hold through these helpers; an element, or a value, the record cannot hold
// is a 422 FHIR_ELEMENT_NOT_SUPPORTED naming it (OperationOutcome.issue.expression), never dropped or changed. What
// the server sets itself (id, meta, the narrative) is not the client's to set, and is not read.
import type { Coding } from '../../contracts/kinds/coded';
import { AppError } from '../errors/app-error';
import { obj, str, type Json } from './input';

/** 422: the record cannot hold this element or value. */
export const notHeld = (expression: string, message: string): AppError =>
  new AppError('FHIR_ELEMENT_NOT_SUPPORTED', `${expression}: ${message}`, { issues: [{ path: expression, message }] });

/** Elements of any resource the server sets itself: never read from a create. */
export const SERVER_ELEMENTS: readonly string[] = ['resourceType', 'id', 'meta', 'text'];
/** What of `meta` a client may send: its profile claims and what the server replaces; tags and security labels are held nowhere. */
const META_KEYS = ['versionId', 'lastUpdated', 'profile', 'source'];

/** Refuses every element of the resource that the kind does not read (`elements`) and meta it cannot hold. */
export function refuseUnread(type: string, r: Json, elements: readonly string[]): void {
  for (const key of Object.keys(r)) {
    if (!SERVER_ELEMENTS.includes(key) && !elements.includes(key)) throw notHeld(`${type}.${key}`, 'The record cannot hold this element');
  }
  if (r.meta !== undefined) onlyKeys(r.meta, META_KEYS, `${type}.meta`);
}

/** The object `v`, refusing any key but `keys` (named under `path`). */
export function onlyKeys(v: unknown, keys: readonly string[], path: string): Json {
  const o = obj(v);
  for (const key of Object.keys(o)) if (!keys.includes(key)) throw notHeld(`${path}.${key}`, 'The record cannot hold this element');
  return o;
}

/** The one entry of a list the record holds one of (or the value itself when it is not a list); undefined when absent. */
export function single(v: unknown, path: string): unknown {
  if (!Array.isArray(v)) return v;
  if (v.length > 1) throw notHeld(`${path}[1]`, 'The record holds one of these');
  return v[0];
}

/**
 * The code of a CodeableConcept of a fixed code system (a status, a category): one coding in `system`, its display
 * the code system's own words. Undefined when absent.
 */
export function fixedCode(v: unknown, path: string, system: string): string | undefined {
  if (v === undefined) return undefined;
  const concept = onlyKeys(v, ['coding', 'text'], path);
  const coding = onlyKeys(single(concept.coding, `${path}.coding`), ['system', 'code', 'display'], `${path}.coding`);
  if (coding.system !== system) throw notHeld(`${path}.coding`, `The record holds codes of ${system} here`);
  // A text that repeats the coding's words (as the record's own resources carry it) adds nothing; other words would
  // be dropped, so they are refused.
  if (concept.text !== undefined && str(concept.text)?.toLowerCase() !== str(coding.display)?.toLowerCase())
    throw notHeld(`${path}.text`, 'The record holds the code here, not other words');
  return str(coding.code);
}

/** A code the record holds for a fixed-system element: refused when the record has no such value. */
export function oneOf<T extends string>(code: string | undefined, path: string, held: readonly T[]): T | undefined {
  if (code === undefined) return undefined;
  if (!(held as readonly string[]).includes(code))
    throw notHeld(path, `The record cannot hold '${code}' here (it holds ${held.join(', ')})`);
  return code as T;
}

/** What a coded CodeableConcept gives the record: its words, the catalogue's code, and every coding as sent. */
export interface CodedInput {
  words: string | undefined;
  code: string | null;
  codeSystem: string | null;
  codings: Coding[] | null;
}

/**
 * A CodeableConcept of a coded kind (its text and codings): the catalogue coding (one at most, in one of `systems`,
 * checked against the catalogue by the records service) and every coding as sent. Words: the text, else the
 * catalogue coding's display, else the first display.
 */
export function codedConcept(v: unknown, path: string, systems: readonly string[]): CodedInput {
  const concept = onlyKeys(v, ['coding', 'text'], path);
  const sent = concept.coding === undefined ? [] : Array.isArray(concept.coding) ? (concept.coding as unknown[]) : [concept.coding];
  const codings: Coding[] = sent.map((c, i) => {
    const coding = onlyKeys(c, ['system', 'code', 'display'], `${path}.coding[${i}]`);
    const system = str(coding.system);
    const code = str(coding.code);
    if (!system || !code) throw notHeld(`${path}.coding[${i}]`, 'The record holds a coding with its system and code');
    const display = coding.display;
    // A display that is not text goes on to the schema, which refuses it (400).
    return { system, code, ...(display !== undefined ? { display: display as string } : {}) };
  });
  const catalogue = codings.filter((c) => systems.includes(c.system));
  if (catalogue.length > 1) throw notHeld(`${path}.coding`, `The record holds one code of ${systems.join(' or ')}`);
  const picked = catalogue[0];
  return {
    words: str(concept.text) ?? picked?.display ?? codings.find((c) => c.display)?.display,
    code: picked?.code ?? null,
    codeSystem: picked?.system ?? null,
    codings: codings.length ? codings : null,
  };
}

/** A CodeableConcept the record holds as its words only (a reaction, a reason): text, no codings. */
export function textConcept(v: unknown, path: string): string | undefined {
  if (v === undefined) return undefined;
  return str(onlyKeys(v, ['text'], path).text);
}

/** A named reference (a clinician or a facility known by name): its display only. */
export function displayOf(v: unknown, path: string): string | undefined {
  if (v === undefined) return undefined;
  return str(onlyKeys(v, ['display'], path).display);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const FHIR_DATE_TIME = /^\d{4}(-\d{2}(-\d{2}(T.+)?)?)?$/;

/**
 * A FHIR date or dateTime the record holds as a day (YYYY-MM-DD). A time or a partial date is a value it cannot hold
 * (422); anything else goes on to the schema as it is (400 when it is not a date).
 */
export function dayOf(v: unknown, path: string): string | undefined {
  if (typeof v !== 'string') return v === undefined ? undefined : (v as string);
  if (DAY.test(v) || !FHIR_DATE_TIME.test(v)) return v;
  throw notHeld(path, 'The record holds a day (YYYY-MM-DD) here, not a time or a partial date');
}

/** The note the record holds as one text (the first of `note`); other parts of an Annotation are held nowhere. */
export function noteText(v: unknown, path: string): string | undefined {
  const note = single(v, path);
  if (note === undefined) return undefined;
  return str(onlyKeys(note, ['text'], Array.isArray(v) ? `${path}[0]` : path).text);
}

/** Why a create is stored as entered in error: FHIR's `refuted` or `entered-in-error` (the reason kept with the row). */
export const REFUTED_REASON = 'Refuted (FHIR verificationStatus refuted)';
export const ENTERED_IN_ERROR_REASON = 'Entered in error (FHIR status entered-in-error)';

/** The status an entered-in-error row shows: refuted when it came as refuted, else entered-in-error. */
export const errorStatusOf = (row: { enteredInErrorAt: string | null; enteredInErrorReason: string | null }): string | null =>
  row.enteredInErrorAt === null ? null : row.enteredInErrorReason === REFUTED_REASON ? 'refuted' : 'entered-in-error';
