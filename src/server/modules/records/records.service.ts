// The clinical record (SPEC §3, §7; DESIGN.md §4, §6, §9): every kind's list of one patient, handled alike through
// the kinds' definitions (modules/records/kinds). Every call runs in one audited data context, opens the patient's
// record through the access module's grant check (a PatientScope) and writes its audit row: reads VIEW, adds CREATE
// with newValues, edits UPDATE with oldValues and newValues, deletes DELETE with oldValues.
import type { z } from 'zod';
import {
  kindContract,
  KIND_CONTRACTS,
  PORTAL_KINDS,
  type NewRecordItems,
  type PortalKind,
  type PortalRows,
  type RecordKind,
  type RecordRows,
} from '../../../contracts/kinds';
import type { RecordSummary } from '../../../contracts/record-api';
import type { RecordWarning } from '../../../contracts/record-warnings';
import { staffDisplayName, type ActorCheck, type PatientActor, type StaffActor } from '../../context/actor';
import { UnconfirmedActorError } from '../../context/actor-check';
import { actorCheckSql } from '../../context/session';
import { inAuditedTransaction, type ContextAuditEntry, type RequestScope } from '../../context/data-context';
import { AppError, validationFailed } from '../../errors/app-error';
import { auditActorOf } from '../../audit/audit-writer';
import { accessNotConfirmed, patientNotFound } from '../access/access.service';
import { openOwnRecordWithDetails, openPatientRecord, type PatientScope } from '../access/patient-scope';
import { readSummaryAudited } from './record-summary.repository';
import { codeEntryOf } from './record-codes';
import { serverKind } from './kinds';
import {
  deleteItem,
  insertItem,
  itemPatient,
  lockItemPatient,
  selectItem,
  selectList,
  selectListsOf,
  updateItem,
} from './records.repository';
import type { RecordPatient } from '../../../contracts/access';

/** Who asks, from where, and when (the server's clock, so tests can move it). */
export type RecordCaller = RequestScope<StaffActor>;

/** The parsed add input of each kind. */
export type NewRecordItem<K extends RecordKind> = NewRecordItems[K];

const notFound = (kind: RecordKind): AppError => new AppError('RECORD_ENTRY_NOT_FOUND', kindContract(kind).notFound, { details: { kind } });

function entry(
  kind: RecordKind,
  patientId: number,
  rest: Pick<ContextAuditEntry, 'action'> & Partial<ContextAuditEntry>,
): ContextAuditEntry {
  return { resourceType: kindContract(kind).resourceType as ContextAuditEntry['resourceType'], patientId, ...rest };
}

/** GET /api/patients/{id}/<kind>: newest first; audited as VIEW with the number of rows returned. */
export async function listRecordItems<K extends RecordKind>(c: RecordCaller, kind: K, patientId: number): Promise<RecordRows[K][]> {
  return inAuditedTransaction(c, async (ctx) => {
    const scope = await openPatientRecord(ctx, patientId);
    const rows = await selectList(scope, kind);
    return ctx.audited(rows, entry(kind, patientId, { action: 'VIEW', newValues: { list: kind, returned: rows.length } }));
  });
}

/**
 * What is stored for a checked input: the input, the catalogue's display of its code, and what the kind decides
 * itself. 400 for a code the catalogue does not hold (or holds in another system) and for the kind's own checks;
 * 409 CONFIRMATION_REQUIRED for warnings the caller has not confirmed (contracts/record-warnings.ts).
 */
async function storedValues<K extends RecordKind>(
  c: RecordCaller,
  scope: PatientScope,
  kind: K,
  input: NewRecordItem<K>,
  confirmed: readonly string[],
  existing: RecordRows[K] | null,
): Promise<Record<string, unknown>> {
  const k = serverKind(kind);
  const typed = input as NewRecordItems[RecordKind];
  const code = codeEntryOf(kind, input as { code?: string | null; codeSystem?: string | null });
  const issues = k.validate?.(typed, code) ?? [];
  if (issues.length) throw validationFailed(issues);
  const warnings: RecordWarning[] = (await k.check?.(scope, typed, existing ? (existing as { id: number }).id : null)) ?? [];
  const unconfirmed = warnings.filter((w) => !confirmed.includes(w.code));
  if (unconfirmed.length)
    throw new AppError('CONFIRMATION_REQUIRED', 'Confirm the warnings to store this entry', { details: { warnings: unconfirmed } });
  return {
    ...(input as Record<string, unknown>),
    ...(kindContract(kind).coded ? { codeDisplay: code?.display ?? null } : {}),
    ...k.stored?.(typed, { now: c.now, name: staffDisplayName(c.actor) }, existing as RecordRows[RecordKind] | null),
  };
}

/** POST /api/patients/{id}/<kind>: stores the item and returns the stored row; audited as CREATE with newValues. */
export async function addRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  patientId: number,
  input: NewRecordItem<K>,
  confirmed: readonly string[] = [],
): Promise<RecordRows[K]> {
  return inAuditedTransaction(c, async (ctx) => {
    const scope = await openPatientRecord(ctx, patientId);
    const row = await insertItem(scope, kind, await storedValues(c, scope, kind, input, confirmed, null));
    return ctx.audited(row, entry(kind, patientId, { action: 'CREATE', resourceId: (row as { id: number }).id, newValues: row }));
  });
}

/** The input fields of a stored row: what an edit starts from. */
function inputOf(kind: RecordKind, now: () => Date, row: Record<string, unknown>): Record<string, unknown> {
  const shape = (kindContract(kind).input(now) as z.ZodObject).shape;
  return Object.fromEntries(Object.keys(shape).map((key) => [key, row[key]]));
}

/**
 * PATCH /api/<kind>/{id}: the fields sent replace the stored ones, and the whole item is checked again as an add
 * would be. 404 for an unknown id; 403 (nothing changed) without a grant for its patient; audited as UPDATE with
 * oldValues and newValues.
 */
export async function updateRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  id: number,
  patch: Record<string, unknown>,
  confirmed: readonly string[] = [],
): Promise<RecordRows[K]> {
  return inAuditedTransaction(c, async (ctx) => {
    const patientId = await lockItemPatient(ctx, kind, id);
    if (patientId === null) throw notFound(kind);
    const scope = await openPatientRecord(ctx, patientId);
    const existing = await selectItem(scope, kind, id);
    if (!existing) throw notFound(kind);
    const now = () => c.now;
    const parsed = KIND_CONTRACTS[kind].input(now).safeParse({ ...inputOf(kind, now, existing as Record<string, unknown>), ...patch });
    if (!parsed.success) throw validationFailed(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    const values = await storedValues(c, scope, kind, parsed.data as NewRecordItem<K>, confirmed, existing);
    const row = await updateItem(scope, kind, id, values);
    if (!row) throw notFound(kind);
    return ctx.audited(row, entry(kind, patientId, { action: 'UPDATE', resourceId: id, oldValues: existing, newValues: row }));
  });
}

/** One item by its id (the FHIR API's read): 404 for an unknown id, 403 without a grant for its patient; audited as VIEW. */
export async function readRecordItem<K extends RecordKind>(c: RecordCaller, kind: K, id: number): Promise<RecordRows[K]> {
  return inAuditedTransaction(c, async (ctx) => {
    const patientId = await itemPatient(ctx, kind, id);
    if (patientId === null) throw notFound(kind);
    const row = await selectItem(await openPatientRecord(ctx, patientId), kind, id);
    if (!row) throw notFound(kind);
    return ctx.audited(row, entry(kind, patientId, { action: 'VIEW', resourceId: id, newValues: { item: kind } }));
  });
}

/** DELETE /api/<kind>/{id}: 404 for an unknown id; 403 (nothing deleted) without a grant for the item's patient. */
export async function deleteRecordItem(c: RecordCaller, kind: RecordKind, id: number): Promise<void> {
  await inAuditedTransaction(c, async (ctx) => {
    const patientId = await lockItemPatient(ctx, kind, id);
    if (patientId === null) throw notFound(kind);
    const row = await deleteItem(await openPatientRecord(ctx, patientId), kind, id);
    if (!row) throw notFound(kind); // locked above: only a concurrent change of its patient gets here
    return ctx.audited(undefined, entry(kind, patientId, { action: 'DELETE', resourceId: (row as { id: number }).id, oldValues: row }));
  });
}

/**
 * GET /api/patients/{id}/record-summary: demographics, the five lists and vital signs in one transaction, audited
 * as one VIEW PATIENT row naming what was returned. The list endpoints stay for refreshing one list.
 */
export async function readRecordSummary(c: RecordCaller, patientId: number, check?: ActorCheck): Promise<RecordSummary> {
  // One statement: the cached actor's confirmation (decision 028), grant check, demographics, every list and the
  // audit row (record-summary.repository.ts).
  const read = await readSummaryAudited(
    c.db,
    c.actor.userId,
    patientId,
    c.now,
    {
      actor: auditActorOf(c.actor),
      meta: c.meta,
      action: 'VIEW',
      resourceType: 'PATIENT',
      resourceId: patientId,
      patientId,
      newValues: { view: 'RECORD' },
    },
    check ? actorCheckSql(check) : undefined,
  );
  if ('unconfirmed' in read) throw new UnconfirmedActorError();
  if (!read.found) throw patientNotFound();
  if (!read.granted) throw accessNotConfirmed();
  return read.summary;
}

/**
 * The signed-in patient's own record for the portal: demographics and the lists the portal shows (each kind's
 * `portal`), newest first in the record's one order, audited as VIEW PATIENT by the patient (via the portal). Throws
 * PatientRemoved (access module), with no audit row, when the patient no longer exists.
 */
export async function readOwnRecord(c: RequestScope<PatientActor>): Promise<{ patient: RecordPatient; lists: PortalRows }> {
  return inAuditedTransaction(c, async (ctx) => {
    const { scope, patient } = await openOwnRecordWithDetails(ctx);
    const rows = await selectListsOf(scope, PORTAL_KINDS);
    const lists = Object.fromEntries(
      PORTAL_KINDS.map((k: PortalKind) => {
        const from = KIND_CONTRACTS[k].portal.from as (row: RecordRows[PortalKind]) => unknown;
        return [k, (rows[k] as RecordRows[PortalKind][]).map(from)];
      }),
    ) as PortalRows;
    return ctx.audited(
      { patient, lists },
      {
        action: 'VIEW',
        resourceType: 'PATIENT',
        resourceId: scope.patientId,
        patientId: scope.patientId,
        newValues: { via: 'patient-portal' },
      },
    );
  });
}
