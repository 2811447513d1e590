// The clinical record (SPEC §3, §7; DESIGN.md §4, §6, §9): the five lists and vital signs of one patient.
// Every call runs in one audited data context, opens the patient's record through the access module's grant check
// (a PatientScope) and writes its audit row: reads VIEW, adds CREATE with newValues, deletes DELETE with oldValues.
import { RECORD_RESOURCE_TYPES, type RecordKind, type RecordRows, type RecordSummary } from '../../../contracts/record-rows';
import type { NewVitals, RecordInputSchemas } from '../../../contracts/records';
import type { z } from 'zod';
import { staffDisplayName, type ActorCheck, type PatientActor, type StaffActor } from '../../context/actor';
import { UnconfirmedActorError } from '../../context/actor-check';
import { actorCheckSql } from '../../context/session';
import { inAuditedTransaction, type ContextAuditEntry, type RequestScope } from '../../context/data-context';
import { AppError } from '../../errors/app-error';
import { auditActorOf } from '../../audit/audit-writer';
import { accessNotConfirmed, patientNotFound } from '../access/access.service';
import { openOwnRecordWithDetails, openPatientRecord } from '../access/patient-scope';
import { readSummaryAudited } from './record-summary.repository';
import {
  deleteItem,
  insertItem,
  itemPatient,
  lockItemPatient,
  selectItem,
  selectList,
  selectListsOf,
  type NewRecordValues,
} from './records.repository';
import type { RecordPatient } from '../../../contracts/access';

/** Who asks, from where, and when (the server's clock, so tests can move it). */
export type RecordCaller = RequestScope<StaffActor>;

/** The parsed add input of each kind. */
export type NewRecordItem<K extends RecordKind> = z.output<RecordInputSchemas[K]>;

const NOT_FOUND: Record<RecordKind, string> = {
  diagnoses: 'Diagnosis not found',
  appointments: 'Appointment not found',
  allergies: 'Allergy not found',
  medications: 'Medication not found',
  vaccines: 'Vaccine record not found',
  vitals: 'Vital signs not found',
};

function entry(
  kind: RecordKind,
  patientId: number,
  rest: Pick<ContextAuditEntry, 'action'> & Partial<ContextAuditEntry>,
): ContextAuditEntry {
  return { resourceType: RECORD_RESOURCE_TYPES[kind], patientId, ...rest };
}

/** GET /api/patients/{id}/<kind>: newest first; audited as VIEW with the number of rows returned. */
export async function listRecordItems<K extends RecordKind>(c: RecordCaller, kind: K, patientId: number): Promise<RecordRows[K][]> {
  return inAuditedTransaction(c, async (ctx) => {
    const scope = await openPatientRecord(ctx, patientId);
    const rows = await selectList(scope, kind);
    return ctx.audited(rows, entry(kind, patientId, { action: 'VIEW', newValues: { list: kind, returned: rows.length } }));
  });
}

/** POST /api/patients/{id}/<kind>: stores the item and returns the stored row; audited as CREATE with newValues. */
export async function addRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  patientId: number,
  input: NewRecordItem<K>,
): Promise<RecordRows[K]> {
  let values: NewRecordValues = { ...(input as Record<string, unknown>) };
  if (kind === 'vitals') {
    const v = input as NewVitals;
    // DESIGN.md §9: recorded by the signed-in user; recorded now unless the reading is dated.
    values = { ...values, recordedAt: v.recordedAt ? new Date(v.recordedAt) : c.now, recordedBy: staffDisplayName(c.actor) };
  }
  return inAuditedTransaction(c, async (ctx) => {
    const scope = await openPatientRecord(ctx, patientId);
    const row = await insertItem(scope, kind, values);
    return ctx.audited(row, entry(kind, patientId, { action: 'CREATE', resourceId: row.id, newValues: row }));
  });
}

/** One item by its id (the FHIR API's read): 404 for an unknown id, 403 without a grant for its patient; audited as VIEW. */
export async function readRecordItem<K extends RecordKind>(c: RecordCaller, kind: K, id: number): Promise<RecordRows[K]> {
  return inAuditedTransaction(c, async (ctx) => {
    const patientId = await itemPatient(ctx, kind, id);
    if (patientId === null) throw new AppError('RECORD_ENTRY_NOT_FOUND', NOT_FOUND[kind], { details: { kind } });
    const row = await selectItem(await openPatientRecord(ctx, patientId), kind, id);
    if (!row) throw new AppError('RECORD_ENTRY_NOT_FOUND', NOT_FOUND[kind], { details: { kind } });
    return ctx.audited(row, entry(kind, patientId, { action: 'VIEW', resourceId: id, newValues: { item: kind } }));
  });
}

/** DELETE /api/<kind>/{id}: 404 for an unknown id; 403 (nothing deleted) without a grant for the item's patient. */
export async function deleteRecordItem(c: RecordCaller, kind: RecordKind, id: number): Promise<void> {
  await inAuditedTransaction(c, async (ctx) => {
    const patientId = await lockItemPatient(ctx, kind, id);
    if (patientId === null) throw new AppError('RECORD_ENTRY_NOT_FOUND', NOT_FOUND[kind], { details: { kind } });
    const row = await deleteItem(await openPatientRecord(ctx, patientId), kind, id);
    if (!row) throw new AppError('RECORD_ENTRY_NOT_FOUND', NOT_FOUND[kind], { details: { kind } }); // locked above: only a concurrent change of its patient gets here
    return ctx.audited(undefined, entry(kind, patientId, { action: 'DELETE', resourceId: row.id, oldValues: row }));
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

/** The five lists the patient portal shows (SPEC §3: vital signs are not among them). */
export const PORTAL_KINDS = ['diagnoses', 'appointments', 'allergies', 'medications', 'vaccines'] as const;
export type PortalKind = (typeof PORTAL_KINDS)[number];

/**
 * The signed-in patient's own record for the portal: demographics and the five lists, newest first in the record's
 * one order, audited as VIEW PATIENT by the patient (via the portal). Throws PatientRemoved (access module), with no
 * audit row, when the patient no longer exists.
 */
export async function readOwnRecord(
  c: RequestScope<PatientActor>,
): Promise<{ patient: RecordPatient; lists: { [K in PortalKind]: RecordRows[K][] } }> {
  return inAuditedTransaction(c, async (ctx) => {
    const { scope, patient } = await openOwnRecordWithDetails(ctx);
    const lists = await selectListsOf(scope, PORTAL_KINDS);
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
