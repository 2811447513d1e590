// The FHIR R4 API (issue 14; docs/decisions/019-fhir-r4-api.md) under /fhir/R4, beside the staff API and over the
// same services: every route names its staff permission and FHIR access (fhir-access.ts), answers
// application/fhir+json, and fails as an OperationOutcome (errors/operation-outcome.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FhirResourceType } from '../../../contracts/fhir-scopes';
import type { AppDeps } from '../../deps';
import { AppError } from '../../errors/app-error';
import { FHIR_JSON } from '../../errors/operation-outcome';
import { depthCheckedJsonParser } from '../../http/json-depth';
import { countOrRefuse } from '../../http/rate-limit';
import { fhirGuard } from './fhir-access';
import { accessInputOf, confirmAccess } from './fhir-grant.service';
import { capabilityStatement } from './fhir-capabilities';
import { createResource, existingFor } from './fhir-create.service';
import { createDiagnosticReport } from './fhir-diagnostic-report.service';
import { CLINICAL_TYPES, CREATABLE_TYPES, searchParamsOf } from './fhir-kinds';
import { isLenient } from './fhir-search-params';
import { typeSearchParams } from './fhir-search-semantics';
import { AUDIT_EVENT_PARAMS } from './fhir-audit-event';
import {
  checkPatientSearch,
  readClinical,
  readPatientResource,
  searchAuditEvents,
  searchClinical,
  searchImmunizationRecommendations,
  searchPatientResources,
  type FhirCall,
} from './fhir-read.service';
import { checkMatch, matchPatients } from './fhir-match.service';
import { confirmQuery } from '../../../contracts/record-warnings';
import { etagOfResource } from '../../fhir/resource-meta';
import type { FhirResource } from '../../fhir/resources';
import { readResourceVersion, resourceHistory } from './fhir-history.service';
import { updateResource } from './fhir-update.service';
import { patientOfIdentifier, patientSummary, summaryLanguageOf, summaryParametersOf, summaryQueryOf } from './fhir-summary.service';

export const FHIR_BASE_PATH = '/fhir/R4';

const idParams = z.object({ id: z.string() });
/**
 * The documented query parameters of a search (OpenAPI; the hostile-input test walks them). The handler reads the raw
 * query itself (fhir-search-params.ts), so repeated and unknown parameters are refused there, not dropped here.
 */
const searchQuery = (names: readonly string[]) =>
  z.looseObject(
    // A date range repeats its parameter (date=ge...&date=le...): the handler decides which may repeat.
    Object.fromEntries([...names, '_count', '_offset'].map((n) => [n, z.union([z.string(), z.array(z.string())]).optional()])),
  );
/** A search's own parameter names and the standard ones (fhir-search-semantics.ts). */
const names = (type: string, own: readonly string[], include: boolean): string[] =>
  typeSearchParams(
    type,
    own.map((name) => ({ name, type: '', documentation: '' })),
    { include },
  ).map((p) => p.name);
/** A resource body: its type is checked here, its content by the records schema (fhir-create.service.ts). */
const resourceBody = (type: string) => z.looseObject({ resourceType: z.literal(type) });
/** A numeric resource id (our row ids): anything else is simply not found. */
function numericId(type: string, id: string): number {
  if (!/^[1-9]\d{0,9}$/.test(id) || Number(id) > 2_147_483_647) throw new AppError('NOT_FOUND', `${type}/${id} not found`);
  return Number(id);
}

/** A request header's one value (a repeated header is its first). */
const headerOf = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

export function fhirRoutes({ db, config }: AppDeps) {
  // The per-user search limit (a system client's own, when an administrator set one: decision 050), counted as the
  // staff API's search counts it (decision 059), so searching through both APIs does not double it.
  const searchLimit = async (request: FastifyRequest): Promise<void> => {
    const { limit } = request.gatedScope('search').gate;
    if (limit) await countOrRefuse(db, limit);
  };
  // Absolute links name the configured public address, never the request's Host header (issue 21 item 20).
  const baseUrl = (): string => `${config.publicUrl}${FHIR_BASE_PATH}`;
  const callOf = (request: FastifyRequest): FhirCall => ({
    scope: request.gatedScope(),
    base: baseUrl(),
    query: request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '',
    lenient: isLenient(request.headers.prefer),
  });
  const send = (reply: FastifyReply, resource: unknown, status = 200) => reply.status(status).type(FHIR_JSON).send(resource);
  // A versioned resource's answer carries its ETag, W/"<versionId>" (decision 053).
  const sendVersioned = (reply: FastifyReply, resource: FhirResource, status = 200) => {
    const etag = etagOfResource(resource);
    if (etag) reply.header('etag', etag);
    return send(reply, resource, status);
  };
  // The IPS in the reader's language (decision 053).
  const summaryOf = (request: FastifyRequest, patientId: number) =>
    patientSummary(callOf(request), patientId, summaryLanguageOf(request.headers['accept-language']));

  return async (app: FastifyInstance): Promise<void> => {
    // FHIR clients send application/fhir+json; it is JSON like any other body (and keeps the CSRF rule: no form posts).
    app.addContentTypeParser('application/fhir+json', { parseAs: 'string' }, depthCheckedJsonParser(app));
    const tags = ['fhir'];
    const doc = (summary: string) => ({ tags, summary });
    const search = (type: FhirResourceType) =>
      fhirGuard(type === 'AuditEvent' ? 'audit.read' : type === 'Patient' ? 'patients.search' : 'records.read', type, 'read');

    app.get(`${FHIR_BASE_PATH}/metadata`, { schema: doc('CapabilityStatement') }, async (request, reply) =>
      send(reply, capabilityStatement(baseUrl(), config.now())),
    );

    app.get(
      `${FHIR_BASE_PATH}/Patient`,
      {
        onRequest: search('Patient'),
        preValidation: async (request) => checkPatientSearch(callOf(request)),
        preHandler: searchLimit,
        schema: {
          ...doc('Search patients'),
          querystring: searchQuery(names('Patient', ['identifier', 'family', 'birthdate', 'name'], false)),
        },
      },
      async (request, reply) => send(reply, await searchPatientResources(config, callOf(request))),
    );
    app.post(
      `${FHIR_BASE_PATH}/Patient/$match`,
      {
        onRequest: search('Patient'),
        preValidation: async (request) => checkMatch(request.body, config.now()),
        preHandler: searchLimit,
        schema: { ...doc('Match a patient (smart search)'), body: resourceBody('Parameters') },
      },
      async (request, reply) => send(reply, await matchPatients(config, callOf(request), request.body)),
    );
    app.get<{ Params: { id: string } }>(
      `${FHIR_BASE_PATH}/Patient/:id`,
      { onRequest: fhirGuard('records.read', 'Patient', 'read'), schema: { ...doc('Read a patient'), params: idParams } },
      async (request, reply) => send(reply, await readPatientResource(callOf(request).scope, numericId('Patient', request.params.id))),
    );
    app.get<{ Params: { id: string } }>(
      `${FHIR_BASE_PATH}/Patient/:id/$summary`,
      {
        onRequest: fhirGuard('records.read', 'Patient', 'read'),
        // Only `profile` (the IPS Bundle's) beside the id: any other parameter is refused, not ignored (decision 053).
        preValidation: async (request) => {
          summaryQueryOf(callOf(request).query, true);
        },
        schema: { ...doc('International Patient Summary'), params: idParams },
      },
      async (request, reply) => send(reply, await summaryOf(request, numericId('Patient', request.params.id))),
    );
    // The IPS operation's other forms (issue 26 item 7): by identifier, and by POST with a Parameters body. Finding the
    // patient by identifier is the staff's audited NC-number search, so it counts against the search limit.
    const summaryGuard = fhirGuard('records.read', 'Patient', 'read');
    app.get(
      `${FHIR_BASE_PATH}/Patient/$summary`,
      {
        onRequest: summaryGuard,
        preValidation: async (request) => {
          summaryQueryOf(callOf(request).query);
        },
        preHandler: searchLimit,
        schema: { ...doc('International Patient Summary by identifier'), querystring: searchQuery(['identifier', 'profile']) },
      },
      async (request, reply) => {
        const { identifier } = summaryQueryOf(callOf(request).query);
        return send(reply, await summaryOf(request, await patientOfIdentifier(config, callOf(request), identifier!)));
      },
    );
    app.post(
      `${FHIR_BASE_PATH}/Patient/$summary`,
      {
        onRequest: summaryGuard,
        preValidation: async (request) => {
          summaryParametersOf(request.body, false);
        },
        preHandler: searchLimit,
        schema: { ...doc('International Patient Summary by identifier (Parameters)'), body: resourceBody('Parameters') },
      },
      async (request, reply) => {
        const { identifier } = summaryParametersOf(request.body, false);
        return send(reply, await summaryOf(request, await patientOfIdentifier(config, callOf(request), identifier!)));
      },
    );
    app.post<{ Params: { id: string } }>(
      `${FHIR_BASE_PATH}/Patient/:id/$summary`,
      {
        onRequest: summaryGuard,
        preValidation: async (request) => {
          summaryParametersOf(request.body, true);
        },
        schema: { ...doc('International Patient Summary (Parameters)'), params: idParams, body: resourceBody('Parameters') },
      },
      async (request, reply) => send(reply, await summaryOf(request, numericId('Patient', request.params.id))),
    );

    // Confirming access to a record (consent or a stated reason), as the access screen does: how a system client gets
    // the live grant every record read needs (decision 019).
    app.post<{ Params: { id: string } }>(
      `${FHIR_BASE_PATH}/Patient/:id/$access`,
      {
        onRequest: fhirGuard('records.read', 'Patient', 'read'),
        // Checked before anything is counted: the grant's own statement counts the per-user grant limit (decision 028).
        preValidation: async (request) => {
          numericId('Patient', (request.params as { id: string }).id);
          accessInputOf(request.body);
        },
        schema: {
          ...doc('Confirm access to a record (consent or break-the-glass reason)'),
          params: idParams,
          body: resourceBody('Parameters'),
        },
      },
      async (request, reply) =>
        send(reply, await confirmAccess(request.gatedScope('accessGrant'), numericId('Patient', request.params.id), request.body), 201),
    );

    for (const type of CLINICAL_TYPES.keys()) {
      const params = names(type, ['patient', ...searchParamsOf(type).map((p) => p.name)], true);
      app.get(
        `${FHIR_BASE_PATH}/${type}`,
        { onRequest: search(type), schema: { ...doc(`Search ${type} by patient`), querystring: searchQuery(params) } },
        async (request, reply) => send(reply, await searchClinical(callOf(request), type)),
      );
      app.get<{ Params: { id: string } }>(
        `${FHIR_BASE_PATH}/${type}/:id`,
        { onRequest: fhirGuard('records.read', type, 'read'), schema: { ...doc(`Read ${type}`), params: idParams } },
        async (request, reply) => sendVersioned(reply, await readClinical(callOf(request).scope, type, request.params.id)),
      );
      // vread and history (decision 053): the row's versions, grant-checked and audited as its history read.
      app.get<{ Params: { id: string; vid: string } }>(
        `${FHIR_BASE_PATH}/${type}/:id/_history/:vid`,
        {
          onRequest: fhirGuard('records.read', type, 'read'),
          schema: { ...doc(`Read a version of ${type}`), params: z.object({ id: z.string(), vid: z.string() }) },
        },
        async (request, reply) =>
          sendVersioned(reply, await readResourceVersion(callOf(request).scope, type, request.params.id, request.params.vid)),
      );
      app.get<{ Params: { id: string } }>(
        `${FHIR_BASE_PATH}/${type}/:id/_history`,
        { onRequest: fhirGuard('records.read', type, 'read'), schema: { ...doc(`History of ${type}`), params: idParams } },
        async (request, reply) => send(reply, await resourceHistory(callOf(request), type, request.params.id)),
      );
    }

    app.get(
      `${FHIR_BASE_PATH}/ImmunizationRecommendation`,
      {
        onRequest: search('ImmunizationRecommendation'),
        schema: {
          ...doc("A patient's due and overdue vaccine doses"),
          querystring: searchQuery(names('ImmunizationRecommendation', ['patient'], false)),
        },
      },
      async (request, reply) => send(reply, await searchImmunizationRecommendations(callOf(request))),
    );

    app.get(
      `${FHIR_BASE_PATH}/AuditEvent`,
      {
        onRequest: search('AuditEvent'),
        schema: { ...doc("A patient's access history"), querystring: searchQuery(names('AuditEvent', AUDIT_EVENT_PARAMS, false)) },
      },
      async (request, reply) => send(reply, await searchAuditEvents(callOf(request))),
    );

    for (const type of CREATABLE_TYPES) {
      app.post(
        `${FHIR_BASE_PATH}/${type}`,
        {
          onRequest: fhirGuard('records.write', type, 'write'),
          schema: { ...doc(`Create ${type}`), querystring: confirmQuery, body: resourceBody(type) },
        },
        async (request, reply) => {
          // The querystring schema has already turned `confirm` into the warning codes (contracts/record-warnings.ts).
          const { confirm, overrideReason } = request.query as { confirm: string[]; overrideReason: string | null };
          // Conditional create (issue 26 item 3): the entry already on the record answers a retry, 200 and no second row.
          const existing = await existingFor(callOf(request), type, headerOf(request.headers['if-none-exist']));
          if (existing) return send(reply, existing, 200);
          const created = await createResource(callOf(request).scope, type, request.body, { codes: confirm, overrideReason });
          reply.header('location', `${baseUrl()}/${created.resourceType}/${created.id}`);
          return sendVersioned(reply, created, 201);
        },
      );
    }

    // FHIR update (decision 053): the records service's edit, If-Match required (412 without or stale).
    for (const type of CREATABLE_TYPES) {
      app.put<{ Params: { id: string } }>(
        `${FHIR_BASE_PATH}/${type}/:id`,
        {
          onRequest: fhirGuard('records.write', type, 'write'),
          schema: { ...doc(`Update ${type}`), params: idParams, querystring: confirmQuery, body: resourceBody(type) },
        },
        async (request, reply) => {
          const { confirm, overrideReason } = request.query as { confirm: string[]; overrideReason: string | null };
          const updated = await updateResource(callOf(request).scope, type, request.params.id, request.body, request.headers['if-match'], {
            codes: confirm,
            overrideReason,
          });
          return sendVersioned(reply, updated);
        },
      );
    }

    // A laboratory report grouping results already on the record (issue 26 item 2, decision 049).
    app.post(
      `${FHIR_BASE_PATH}/DiagnosticReport`,
      {
        onRequest: fhirGuard('records.write', 'DiagnosticReport', 'write'),
        schema: { ...doc('Create a DiagnosticReport grouping laboratory results'), body: resourceBody('DiagnosticReport') },
      },
      async (request, reply) => {
        const existing = await existingFor(callOf(request), 'DiagnosticReport', headerOf(request.headers['if-none-exist']));
        if (existing) return send(reply, existing, 200);
        const created = await createDiagnosticReport(callOf(request).scope, request.body);
        reply.header('location', `${baseUrl()}/DiagnosticReport/${created.id}`);
        return send(reply, created, 201);
      },
    );
  };
}
