// Creates of the FHIR API (issue 14 item 3): a resource becomes the same record input the staff screens send, by
// the mapping of the kind that takes it (modules/records/kinds), checked by the same schema and added through the
// records module: the same permission, grant check, catalogue check, warnings and CREATE audit row. What FHIR does
// not carry (the facility, the clinician's name) comes from the signed-in user, as on the screens.
// Faithful (issue 26 item 1, decision 049): every element is read by the kind's mapping or refused with 422 naming it
// (fhir/faithful.ts); a refuted or entered-in-error resource is stored entered in error. Conditional create (issue 26
// item 3): with If-None-Exist, a search that finds the entry already on the record answers it instead of a second one.
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import { recordInputs, type RecordKind } from '../../../contracts/kinds';
import { staffDisplayName } from '../../context/actor';
import { AppError, validationFailed } from '../../errors/app-error';
import { addRecordItem, type Confirmation, type NewRecordItem } from '../records/records.service';
import { kindsOf } from './fhir-kinds';
import { obj, str } from '../../fhir/input';
import { refuseUnread } from '../../fhir/faithful';
import type { FhirResource } from '../../fhir/resources';
import { searchClinical, type FhirCall, type FhirScope } from './fhir-read.service';

/** The patient a new resource is about (`subject` or `patient`: Patient/<id>); 400 otherwise. */
export function patientOf(type: string, field: 'subject' | 'patient', r: Record<string, unknown>): number {
  const m = /^Patient\/([1-9]\d{0,9})$/.exec(str(obj(r[field]).reference) ?? '');
  if (!m || Number(m[1]) > 2_147_483_647)
    throw validationFailed([{ path: `${type}.${field}`, message: 'A reference to the patient (Patient/<id>) is required' }]);
  // A reference is held as the patient: its display or identifier would be dropped.
  refuseUnread(`${type}.${field}`, obj(r[field]), ['reference']);
  return Number(m[1]);
}

/** POST <Type>[?confirm=]: the stored item as a resource (for a reading of vital signs, the Observation the request described). */
export async function createResource(
  scope: FhirScope,
  type: FhirResourceType,
  body: unknown,
  confirmation: Confirmation,
): Promise<FhirResource> {
  const r = obj(body);
  if (r.resourceType !== type) throw validationFailed([{ path: 'resourceType', message: `The body must be a ${type}` }]);
  const taker = kindsOf(type).find((k) => k.fhir.create?.accepts(r));
  const create = taker?.fhir.create;
  if (!taker || !create) throw validationFailed([{ path: type, message: `This ${type} cannot be recorded here` }]);
  const patientId = patientOf(type, create.patientField, r);
  refuseUnread(type, r, create.elements);
  const kind: RecordKind = taker.kind;
  const input = create.input(r, { name: staffDisplayName(scope.actor), facility: scope.actor.facility ?? undefined });
  const schema = create.schema?.(r, () => scope.now) ?? recordInputs(() => scope.now)[kind];
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw validationFailed(
      parsed.error.issues.map((i) => ({ path: create.expressions[String(i.path[0] ?? '')] ?? type, message: i.message })),
      `Invalid ${type}`,
    );
  }
  const enteredInError = create.enteredInError?.(r) ?? null;
  const { row } = await addRecordItem(
    scope,
    kind,
    patientId,
    parsed.data as NewRecordItem<typeof kind>,
    confirmation,
    null,
    enteredInError,
  );
  return taker.resources(row)[0]!;
}

/**
 * If-None-Exist (a search's query string): the one resource already on the record that it finds, or null when it
 * finds none (the create goes ahead); 412 CONDITIONAL_CREATE_AMBIGUOUS when it finds more than one. The search is the
 * type's search (patient required), read and audited as any search is.
 */
export async function existingFor(call: FhirCall, type: FhirResourceType, ifNoneExist: string | undefined): Promise<FhirResource | null> {
  if (ifNoneExist === undefined) return null;
  const query = ifNoneExist
    .trim()
    .replace(/^\?/, '')
    .replace(new RegExp(`^${type}\\?`), '');
  const found = await searchClinical({ ...call, query, lenient: false }, type);
  const entries = ((found.entry as { resource: FhirResource }[] | undefined) ?? []).map((e) => e.resource);
  const total = typeof found.total === 'number' ? found.total : entries.length;
  if (total === 0) return null;
  if (total > 1)
    throw new AppError('CONDITIONAL_CREATE_AMBIGUOUS', `If-None-Exist matches ${total} ${type} resources`, {
      issues: [{ path: 'If-None-Exist', message: `${total} ${type} resources match: name one` }],
    });
  return entries[0]!;
}
