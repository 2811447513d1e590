// GET /fhir/R4/metadata (issue 14 item 1): exactly what this server supports, built from the same tables the routes
// are registered from, so the statement cannot drift from the routes.
import type { FhirResource } from '../../fhir/resources';
import { CLINICAL_TYPES, CREATABLE_TYPES, GROUPING_TYPES, searchParamsOf } from './fhir-kinds';
import { typeSearchParams } from './fhir-search-semantics';

export interface ResourceCapability {
  type: string;
  profile?: string;
  read: boolean;
  create: boolean;
  /** vread and history of a resource, from its row's versions (decision 053). */
  versioned?: boolean;
  /** update (PUT, If-Match required): the types whose kinds take a resource (decision 053). */
  update?: boolean;
  searchParams: { name: string; type: string; documentation: string }[];
  operations?: { name: string; definition: string }[];
}

const patientParam = { name: 'patient', type: 'reference', documentation: 'The patient (Patient/<id>); required' };

export const CAPABILITIES: ResourceCapability[] = [
  {
    type: 'Patient',
    read: true,
    create: false,
    searchParams: typeSearchParams(
      'Patient',
      [
        { name: 'identifier', type: 'token', documentation: 'NC number, system https://nhr.health.gov.na/fhir/sid/nc-number; alone' },
        { name: 'family', type: 'string', documentation: 'Last name, exact; together with birthdate' },
        {
          name: 'birthdate',
          type: 'date',
          documentation:
            'Date of birth, together with family (or name): a day, or a prefix eq, ne, lt, gt, le, ge, sa or eb and YYYY, YYYY-MM or YYYY-MM-DD',
        },
        { name: 'name', type: 'string', documentation: 'Any part of the name, tolerant of misspellings (smart search); alone' },
      ],
      { include: false },
    ),
    operations: [
      { name: 'match', definition: 'http://hl7.org/fhir/OperationDefinition/Patient-match' },
      // GET and POST, by id or identifier (decision 053).
      { name: 'summary', definition: 'http://hl7.org/fhir/uv/ips/OperationDefinition/summary' },
      { name: 'access', definition: 'https://nhr.health.gov.na/fhir/OperationDefinition/Patient-access' },
    ],
  },
  // The clinical types, from the kinds they are made of (fhir-kinds.ts).
  ...[...CLINICAL_TYPES.entries()].map(([type, kinds]) => ({
    type,
    ...(kinds.length === 1 && kinds[0]!.fhir.profile ? { profile: kinds[0]!.fhir.profile } : {}),
    read: true,
    create: CREATABLE_TYPES.includes(type) || GROUPING_TYPES.includes(type),
    searchParams: typeSearchParams(type, [patientParam, ...searchParamsOf(type)], { include: true }),
    versioned: true,
    update: CREATABLE_TYPES.includes(type),
  })),
  // The schedule's due and overdue doses of a patient (decision 044): one resource per patient, searched by patient.
  {
    type: 'ImmunizationRecommendation',
    read: false,
    create: false,
    searchParams: typeSearchParams('ImmunizationRecommendation', [patientParam], { include: false }),
  },
  // Newest first, paged by the next link's cursor; no total (issue 26 item 6).
  {
    type: 'AuditEvent',
    read: false,
    create: false,
    searchParams: typeSearchParams('AuditEvent', [patientParam], { include: false }).filter((p) => p.name !== '_sort'),
  },
];

export function capabilityStatement(base: string, now: Date): FhirResource {
  return {
    resourceType: 'CapabilityStatement',
    status: 'active',
    date: now.toISOString().slice(0, 10),
    publisher: 'National Health Records, Namibia',
    kind: 'instance',
    software: { name: 'National Health Records', version: '0.1.0' },
    implementation: { description: 'National Health Records FHIR R4 API', url: base },
    fhirVersion: '4.0.1',
    format: ['application/fhir+json', 'json'],
    rest: [
      {
        mode: 'server',
        documentation:
          'Every read and search needs the permission of the matching staff screen and, for a record, a live access grant (consent or break-the-glass); every call is audited. Unsupported search parameters are refused with 400, or ignored and named in an OperationOutcome entry with Prefer: handling=lenient.',
        security: {
          // The SMART token endpoint (decision 050), as SMART App Launch names it in the statement.
          extension: [
            {
              url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
              extension: [{ url: 'token', valueUri: `${base}/auth/token` }],
            },
          ],
          cors: true,
          service: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] }],
          description: `A staff session cookie, a bearer token of a system client created by an administrator (SMART v1 scopes), or an access token from the SMART Backend Services token endpoint ${base}/auth/token (client_credentials with a private_key_jwt assertion signed RS384 or ES384; SMART v2 system scopes; see ${base}/.well-known/smart-configuration).`,
        },
        resource: CAPABILITIES.map((c) => ({
          type: c.type,
          ...(c.profile ? { profile: c.profile } : {}),
          interaction: [
            ...(c.read ? [{ code: 'read' }] : []),
            ...(c.versioned ? [{ code: 'vread' }, { code: 'history-instance' }] : []),
            { code: 'search-type' },
            ...(c.create ? [{ code: 'create' }] : []),
            ...(c.update ? [{ code: 'update' }] : []),
          ],
          // Versions (decision 053): meta.versionId and ETag; an update must name its version in If-Match.
          ...(c.versioned
            ? { versioning: c.update ? 'versioned-update' : 'versioned', readHistory: true, ...(c.update ? { updateCreate: false } : {}) }
            : {}),
          // If-None-Exist (decision 049): a create whose search finds the entry answers it, 200.
          ...(c.create ? { conditionalCreate: true } : {}),
          searchParam: [
            ...c.searchParams,
            { name: '_count', type: 'number', documentation: 'Page size (default 50; above 200 is taken as 200)' },
            ...(c.type === 'AuditEvent'
              ? []
              : [{ name: '_offset', type: 'number', documentation: 'Entries to skip (paging links use it)' }]),
          ],
          ...(c.operations ? { operation: c.operations } : {}),
        })),
      },
    ],
  };
}
