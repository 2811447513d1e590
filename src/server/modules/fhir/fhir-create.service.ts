// Creates of the FHIR API (issue 14 item 3): a resource becomes the same record input the staff screens send, by
// the mapping of the kind that takes it (modules/records/kinds), checked by the same schema and added through the
// records module: the same permission, grant check, catalogue check, warnings and CREATE audit row. What FHIR does
// not carry (the facility, the clinician's name) comes from the signed-in user, as on the screens.
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import { recordInputs, type RecordKind } from '../../../contracts/kinds';
import { staffDisplayName } from '../../context/actor';
import { validationFailed } from '../../errors/app-error';
import { addRecordItem, type Confirmation, type NewRecordItem } from '../records/records.service';
import { kindsOf } from './fhir-kinds';
import { obj, str } from '../../fhir/input';
import type { FhirResource } from '../../fhir/resources';
import type { FhirScope } from './fhir-read.service';

/** The patient a new resource is about (`subject` or `patient`: Patient/<id>); 400 otherwise. */
export function patientOf(type: string, field: 'subject' | 'patient', r: Record<string, unknown>): number {
  const m = /^Patient\/([1-9]\d{0,9})$/.exec(str(obj(r[field]).reference) ?? '');
  if (!m || Number(m[1]) > 2_147_483_647)
    throw validationFailed([{ path: `${type}.${field}`, message: 'A reference to the patient (Patient/<id>) is required' }]);
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
  const kind: RecordKind = taker.kind;
  const input = create.input(r, { name: staffDisplayName(scope.actor), facility: scope.actor.facility ?? undefined });
  const parsed = recordInputs(() => scope.now)[kind].safeParse(input);
  if (!parsed.success) {
    throw validationFailed(
      parsed.error.issues.map((i) => ({ path: create.expressions[String(i.path[0] ?? '')] ?? type, message: i.message })),
      `Invalid ${type}`,
    );
  }
  const { row } = await addRecordItem(scope, kind, patientId, parsed.data as NewRecordItem<typeof kind>, confirmation);
  return taker.resources(row)[0]!;
}
