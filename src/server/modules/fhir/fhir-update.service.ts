// FHIR update, PUT <Type>/{id} (issue 26 item 3; decision 053): the resource becomes the record input the kind's
// create mapping makes of it, and replaces the stored item through the records service's edit, as the staff screens'
// edit does: the same permission (the route), grant check, schema, warnings and UPDATE audit row. The version the
// client read is named in If-Match (`W/"3"`); DESIGN §12 says edits need one, so a missing If-Match is refused as FHIR
// says a server that requires it refuses: 412 Precondition Failed, as is another version than the stored one.
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import { versionOfIfMatch } from '../../../contracts/record-versions';
import { staffDisplayName } from '../../context/actor';
import { AppError, validationFailed } from '../../errors/app-error';
import { obj } from '../../fhir/input';
import { notHeld, refuseUnread } from '../../fhir/faithful';
import type { FhirResource } from '../../fhir/resources';
import { updateRecordItem, type Confirmation } from '../records/records.service';
import { patientOf } from './fhir-create.service';
import { kindsOf } from './fhir-kinds';
import type { FhirScope } from './fhir-read.service';

/** Two input values alike (a blank and a missing value are alike: the schema reads both as none). */
const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

const notFound = (type: string, id: string): AppError => new AppError('NOT_FOUND', `${type}/${id} not found`);

/** The version If-Match names; 412 without one (checked before anything is read). */
export function ifMatchOf(header: string | string[] | undefined): number {
  const version = versionOfIfMatch(header);
  if (version === null)
    throw new AppError('PRECONDITION_FAILED', 'Send If-Match with the version you read (ETag W/"<versionId>")', {
      issues: [{ path: 'If-Match', message: 'If-Match is required' }],
    });
  return version;
}

/** The updated resource: 200 with it; 404, 403, 400 and 412 change nothing. */
export async function updateResource(
  scope: FhirScope,
  type: FhirResourceType,
  id: string,
  body: unknown,
  ifMatch: string | string[] | undefined,
  confirmation: Confirmation,
): Promise<FhirResource> {
  const version = ifMatchOf(ifMatch);
  const r = obj(body);
  if (r.resourceType !== type) throw validationFailed([{ path: 'resourceType', message: `The body must be a ${type}` }]);
  // FHIR R4 http.html#update: the body's id is the one in the URL.
  if (r.id !== id) throw validationFailed([{ path: `${type}.id`, message: `The resource's id must be ${id}, as in the URL` }]);
  const k = kindsOf(type).find((kind) => kind.fhir.rowId(id) !== null && kind.fhir.create !== null);
  const create = k?.fhir.create;
  const rowId = k?.fhir.rowId(id);
  if (!k || !create || rowId === null || rowId === undefined) throw notFound(type, id);
  if (!create.accepts(r)) throw validationFailed([{ path: type, message: `${type}/${id} cannot become this kind of ${type}` }]);
  const patientId = patientOf(type, create.patientField, r);
  // Retracting an entry is not an edit of its fields: the update would keep it current. Refused, never changed.
  if (create.enteredInError?.(r))
    throw notHeld(type, `An update cannot mark ${type}/${id} refuted or entered in error; mark it entered in error on the record`);
  const by = { name: staffDisplayName(scope.actor), facility: scope.actor.facility ?? undefined };
  const input = create.input(r, by);
  // The update changes what the client changed: the record input of the resource sent is compared, field by field,
  // with the input the same mapping makes of the resource as stored, and only the fields that differ are edited (an
  // element removed is a change too). So what the mapping cannot read back exactly (a Condition's note, the facility
  // it does not carry) is not rewritten by a client that sends back what it read.
  const patchOf = (current: unknown): Record<string, unknown> => {
    // A part a reading does not have (its weight, say) is not there to update: 404, as its read is (no update-create).
    const stored = k.resources(current).find((res) => res.id === id);
    if (!stored) throw notFound(type, id);
    // What an update may change is what a create may set (decision 049): an element the record cannot hold is a 422
    // naming it, never dropped. An element the server writes itself (the performer, taken from the signed-in user
    // at the create) may come back as it was read; changed, it is refused too. The meta read is the server's.
    const changed = Object.fromEntries(
      Object.entries(r).filter(([element, value]) => !sameValue(value, (stored as Record<string, unknown>)[element])),
    );
    refuseUnread(type, { ...changed, resourceType: r.resourceType }, create.elements);
    const before = create.input(stored, by);
    return Object.fromEntries(Object.entries(input).filter(([field, value]) => !sameValue(value, before[field])));
  };
  let row: unknown;
  try {
    row = await updateRecordItem(scope, k.kind, rowId, version, patchOf, confirmation, undefined, patientId);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    if (err.code === 'RECORD_ENTRY_NOT_FOUND') throw notFound(type, id);
    if (err.code === 'VERSION_CONFLICT')
      throw new AppError('PRECONDITION_FAILED', `${type}/${id} was changed since version ${version}`, {
        issues: [{ path: 'If-Match', message: `The current version is not ${version}` }],
      });
    if (err.code === 'VALIDATION_FAILED')
      throw validationFailed(
        (err.issues ?? []).map((i) => ({
          path: i.path === 'patient' ? `${type}.${create.patientField}` : (create.expressions[i.path.split('.')[0] ?? ''] ?? type),
          message: i.message,
        })),
        `Invalid ${type}`,
      );
    throw err;
  }
  const updated = k.resources(row).find((res) => res.id === id);
  if (!updated) throw notFound(type, id);
  return updated;
}
