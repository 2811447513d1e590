// The registry's audited operations: a search and its SEARCH row, a new patient and its CREATE row, each in one
// transaction (DESIGN.md §6).
import type { z } from 'zod';
import type { AddPatientResponse, addPatientRequest } from '../../../contracts/patient-requests';
import { SEARCH_RESULT_LIMIT, type PatientSearchInput, type PatientSearchResult } from '../../../contracts/patients';
import { auditActorOf } from '../../audit/audit-writer';
import { actorRoleAtTheTime, type StaffActor } from '../../context/actor';
import { inAuditedTransaction, type GatedScope, type RequestScope } from '../../context/data-context';
import { inGatedStatement, refuseCachedActor } from '../../context/statement-gate';
import { AppError } from '../../errors/app-error';
import { countOrRefuse } from '../../http/rate-limit';
import { noteSearchVolume, searchVolumeCheckOf } from '../privacy/alerts.service';
import { prepareActivationCode, storeIssuedActivationCode } from '../portal/portal-activation.service';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../duplicates/match-scoring';
import { matchPatient } from '../duplicates/matcher';
import { addPatient, findLikelyDuplicates } from './patients.service';
import { findExactAudited, type ExactSearch } from './search-audited.repository';
import { searchAuditSummary, searchPatients } from './search.service';

/**
 * A search's answer: the exact methods' found patients as the JSON text their statement built (the API sends it as
 * it is), or the fuzzy method's results (scored in Node).
 */
export type SearchAnswer = { json: string } | { results: PatientSearchResult[] };

/**
 * A search, its SEARCH row and the bulk-search volume check (decision 011), under the scope's gate (decision 059:
 * the cached actor's confirmation and the user's search limit, when the route set one; the FHIR API counts its own):
 * for the exact methods all in one statement (issue 11, decision 014); for the fuzzy method the limit's count first,
 * then the audited transaction, then the volume check. Over the limit: 429, and nothing searched or audited.
 */
export async function searchAnswered(scope: GatedScope<StaffActor>, input: PatientSearchInput): Promise<SearchAnswer> {
  const { actor, meta, gate } = scope;
  if (input.method !== 'fuzzy-name') {
    // The exact methods: the search and its row in one statement (search-audited.repository.ts), same row as below.
    const search: ExactSearch =
      input.method === 'id-number'
        ? { method: 'id-number', idNumber: input.idNumber }
        : { method: 'name-dob', lastName: input.lastName, dateOfBirth: input.dateOfBirth, limit: SEARCH_RESULT_LIMIT };
    const audit = {
      actor: auditActorOf(actor),
      meta,
      action: 'SEARCH',
      resourceType: 'PATIENT',
      newValues: { criteria: input, role: actorRoleAtTheTime(actor) },
    } as const;
    const volume = searchVolumeCheckOf(gate.rules.alerts, actor, meta);
    const found = await inGatedStatement(scope, (g) =>
      findExactAudited(scope.db, search, audit, { limitSlots: g.limitSlots, actorSlots: g.actorSlots, volume }),
    );
    return { json: found.answer };
  }
  // The fuzzy method runs several statements: it cannot confirm a cached actor, so it asks for one read now.
  refuseCachedActor(scope);
  if (gate.limit) await countOrRefuse(scope.db, gate.limit);
  // The fuzzy method: the search and its row in one audited data context, then the volume check.
  const found = await inAuditedTransaction(scope, async (ctx) => {
    const results = await searchPatients(ctx.tx, input);
    return ctx.audited(results, {
      action: 'SEARCH',
      resourceType: 'PATIENT',
      // One result names its patient, so the patient sees the search in their access history.
      patientId: results.length === 1 ? results[0]!.id : null,
      newValues: { ...searchAuditSummary(input, results), patientIds: results.map((p) => p.id), role: actorRoleAtTheTime(actor) },
    });
  });
  await noteSearchVolume(
    scope.db,
    gate.rules.alerts,
    actor,
    meta,
    found.map((p) => p.id),
  );
  return { results: found };
}

/** searchAnswered's found patients as objects (the FHIR API's searches). */
export async function searchRecorded(scope: GatedScope<StaffActor>, input: PatientSearchInput): Promise<PatientSearchResult[]> {
  const answer = await searchAnswered(scope, input);
  return 'json' in answer ? (JSON.parse(answer.json) as PatientSearchResult[]) : answer.results;
}

type AddPatientRequest = z.output<typeof addPatientRequest>;

/**
 * Adds a patient; likely duplicates answer 409 with the matches unless the request confirms a new patient. The new
 * patient's portal activation code is issued in the same transaction and answered once (decision 016).
 */
export async function registerPatient(
  scope: RequestScope<StaffActor>,
  request: AddPatientRequest,
  thresholds: Thresholds = DEFAULT_THRESHOLDS,
): Promise<AddPatientResponse> {
  const { confirmDuplicate, ...input } = request;
  if (!confirmDuplicate) await refuseLikelyDuplicates(scope, input, thresholds);
  const prepared = await prepareActivationCode();
  return inAuditedTransaction(scope, async (ctx) => {
    const patient = await addPatient(ctx.tx, input);
    // The new patient's pairs for the review queue, in the add's transaction (decision 046).
    await matchPatient(ctx.tx, patient.id, thresholds, scope.now);
    const { activation, audit } = await storeIssuedActivationCode(ctx, patient.id, prepared, 'registration');
    const created = {
      action: 'CREATE',
      resourceType: 'PATIENT',
      resourceId: patient.id,
      patientId: patient.id,
      newValues: { ...patient, confirmedDuplicate: Boolean(confirmDuplicate) },
    } as const;
    return ctx.audited({ ...patient, portalActivation: activation }, created, audit);
  });
}

/**
 * The duplicate check shows other patients' demographics, so it is a search (issue 21 item 9): counted against the
 * scope's search limit (429 before anything is looked up), and when it answers matches, a SEARCH row naming the
 * patients shown (their access history lists it) and the bulk-search volume check, then 409 with the matches.
 */
async function refuseLikelyDuplicates(
  scope: RequestScope<StaffActor>,
  input: Omit<AddPatientRequest, 'confirmDuplicate'>,
  thresholds: Thresholds,
): Promise<void> {
  if (scope.gate?.limit) await countOrRefuse(scope.db, scope.gate.limit);
  const criteria = {
    method: 'duplicate-check',
    firstName: input.firstName,
    lastName: input.lastName,
    dateOfBirth: input.dateOfBirth ?? null,
  };
  const duplicates = await findLikelyDuplicates(scope.db, input, thresholds);
  if (duplicates.length === 0) return;
  await inAuditedTransaction(scope, async (ctx) =>
    ctx.audited(null, {
      action: 'SEARCH',
      resourceType: 'PATIENT',
      patientId: duplicates.length === 1 ? duplicates[0]!.id : null,
      newValues: {
        criteria,
        resultCount: duplicates.length,
        patientIds: duplicates.map((p) => p.id),
        role: actorRoleAtTheTime(scope.actor),
      },
    }),
  );
  if (scope.gate)
    await noteSearchVolume(
      scope.db,
      scope.gate.rules.alerts,
      scope.actor,
      scope.meta,
      duplicates.map((p) => p.id),
    );
  throw new AppError('DUPLICATE_PATIENT', 'This patient may already be registered', { details: { duplicates } });
}
