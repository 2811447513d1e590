// The clinical record (SPEC §3, §7; DESIGN.md §4, §6, §9): the five lists and vital signs of one patient.
// Every call needs a live access grant for that patient (checked inside the transaction) and writes its audit row:
// reads VIEW, adds CREATE with newValues, deletes DELETE with oldValues.
import type { RecordPatient } from '../../../contracts/access';
import { RECORD_RESOURCE_TYPES, type RecordKind, type RecordRows, type RecordSummary } from '../../../contracts/record-rows';
import type { NewVitals, RecordInputSchemas } from '../../../contracts/records';
import type { z } from 'zod';
import { auditActorOf, type AuditEntry } from '../../audit/audit-writer';
import { staffDisplayName, type RequestMeta, type StaffActor } from '../../context/actor';
import type { Db } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { assertLiveGrant, patientWithLiveGrant } from '../access/access.service';
import { deleteRecorded, insertRecorded, listRecorded, readWholeRecord, type NewRecordValues, type RecordGuard } from './records.repository';

/** Who asks, from where, and when (the server's clock, so tests can move it). */
export interface RecordCaller {
  db: Db;
  actor: StaffActor;
  meta: RequestMeta;
  now: Date;
}

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

const grantGuard = (c: RecordCaller): RecordGuard => (tx, patientId) => assertLiveGrant(tx, c.actor, patientId, c.now);

function entry(c: RecordCaller, kind: RecordKind, patientId: number, rest: Pick<AuditEntry, 'action'> & Partial<AuditEntry>): AuditEntry {
  return { actor: auditActorOf(c.actor), meta: c.meta, resourceType: RECORD_RESOURCE_TYPES[kind], patientId, ...rest };
}

/** GET /api/patients/{id}/<kind>: newest first; audited as VIEW with the number of rows returned. */
export async function listRecordItems<K extends RecordKind>(c: RecordCaller, kind: K, patientId: number): Promise<RecordRows[K][]> {
  return listRecorded(c.db, kind, patientId, grantGuard(c), (rows) =>
    entry(c, kind, patientId, { action: 'VIEW', newValues: { list: kind, returned: rows.length } }),
  );
}

/** POST /api/patients/{id}/<kind>: stores the item and returns the stored row; audited as CREATE with newValues. */
export async function addRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  patientId: number,
  input: NewRecordItem<K>,
): Promise<RecordRows[K]> {
  let values: NewRecordValues = { ...(input as Record<string, unknown>), patientId };
  if (kind === 'vitals') {
    const v = input as NewVitals;
    // DESIGN.md §9: recorded by the signed-in user; recorded now unless the reading is dated.
    values = { ...values, recordedAt: v.recordedAt ? new Date(v.recordedAt) : c.now, recordedBy: staffDisplayName(c.actor) };
  }
  return insertRecorded(c.db, kind, values, grantGuard(c), (row) =>
    entry(c, kind, patientId, { action: 'CREATE', resourceId: row.id, newValues: row }),
  );
}

/** DELETE /api/<kind>/{id}: 404 for an unknown id; 403 (nothing deleted) without a grant for the item's patient. */
export async function deleteRecordItem(c: RecordCaller, kind: RecordKind, id: number): Promise<void> {
  const deleted = await deleteRecorded(c.db, kind, id, grantGuard(c), (row) =>
    entry(c, kind, row.patientId, { action: 'DELETE', resourceId: row.id, oldValues: row }),
  );
  if (!deleted) throw new AppError('RECORD_ENTRY_NOT_FOUND', NOT_FOUND[kind], { details: { kind } });
}

/**
 * GET /api/patients/{id}/record-summary: demographics, the five lists and vital signs in one transaction, audited
 * as one VIEW PATIENT row naming what was returned. The list endpoints stay for refreshing one list.
 */
export async function readRecordSummary(c: RecordCaller, patientId: number): Promise<RecordSummary> {
  const guard: RecordGuard<RecordPatient> = (tx, id) => patientWithLiveGrant(tx, c.actor, id, c.now);
  return readWholeRecord(c.db, patientId, guard, (record) => ({
    actor: auditActorOf(c.actor),
    meta: c.meta,
    action: 'VIEW',
    resourceType: 'PATIENT',
    resourceId: patientId,
    patientId,
    newValues: {
      view: 'RECORD',
      returned: {
        diagnoses: record.diagnoses.length,
        appointments: record.appointments.length,
        allergies: record.allergies.length,
        medications: record.medications.length,
        vaccines: record.vaccines.length,
        vitals: record.vitals.length,
      },
    },
  }));
}
