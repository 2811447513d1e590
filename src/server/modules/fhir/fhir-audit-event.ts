// A patient's access history as FHIR AuditEvents (issue 14 item 2): one per audit row, who did what to which record.
// The entry's old and new values, as the audit log shows them (presented: decision 042, a shredded payload as
// { shredded: true }), travel as the entity's details, JSON text.
import type { AuditLogEntry } from '../../../contracts/audit';
import { patientReference, type FhirResource } from '../../fhir/resources';

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
