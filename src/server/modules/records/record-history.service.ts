// A row's history and the patient's delta read (issue 23 items 1 and 3, decision 041). Both open the patient's record
// as a read does (the grant check) and are audited as VIEW; every row they return goes through the presenter.
import { RECORD_KINDS, type RecordKind, type RecordRows } from '../../../contracts/kinds';
import type { ChangesResponse, HistoryEntry } from '../../../contracts/record-versions';
import { inAuditedTransaction } from '../../context/data-context';
import { actorGate, inGatedStatement } from '../../context/statement-gate';
import { AppError } from '../../errors/app-error';
import { accessNotConfirmed, patientJoined, patientNotFound } from '../access/access.service';
import { openPatientRecord } from '../access/patient-scope';
import { readChangesAudited } from './record-changes.repository';
import { selectVersions } from './record-versions.repository';
import { itemPatient, selectItem } from './records.repository';
import { presentRow } from './present';
import { recordOpenAudit, type RecordCaller } from './records.service';
import { kindContract } from '../../../contracts/kinds';

const notFound = (kind: RecordKind): AppError => new AppError('RECORD_ENTRY_NOT_FOUND', kindContract(kind).notFound, { details: { kind } });

/**
 * GET /api/<kind>/{id}/history: every version of one row, oldest first, entered in error included. 404 for an unknown
 * or withheld row; 403 without a grant for its patient; audited as VIEW naming the versions returned.
 */
export async function readItemHistory<K extends RecordKind>(c: RecordCaller, kind: K, id: number): Promise<HistoryEntry<K>[]> {
  return inAuditedTransaction(c, async (ctx) => {
    const patientId = await itemPatient(ctx, kind, id);
    if (patientId === null) throw notFound(kind);
    const scope = await openPatientRecord(ctx, patientId);
    const current = await selectItem(scope, kind, id, { enteredInError: true });
    if (!current) throw notFound(kind);
    const sealed = false; // the live row was presented above: a withheld row never gets here
    const stored = await selectVersions(scope, kind, id);
    const entries: HistoryEntry<K>[] = stored.flatMap((v) => {
      const row = presentRow(kind, { ...v.row, sealed });
      return row ? [{ version: v.version, action: v.action, at: v.at, by: v.by, changed: v.changed, row }] : [];
    });
    // A row stored before versions existed and never changed since: its one version is the row itself.
    if (entries.length === 0) {
      const row = current as RecordRows[K] & { version: number };
      entries.push({ version: row.version, action: 'created', at: null, by: null, changed: [], row });
    }
    return ctx.audited(entries, {
      action: 'VIEW',
      resourceType: kindContract(kind).resourceType as never,
      resourceId: id,
      patientId,
      newValues: { history: kind, returned: entries.length },
    });
  });
}

/** A cursor of the delta read: the patient it belongs to and the transaction id it names. */
const CURSOR = /^c1\.([1-9]\d{0,9})\.(\d{1,20})$/;
export const encodeCursor = (patientId: number, xmin: string): string => Buffer.from(`c1.${patientId}.${xmin}`).toString('base64url');

function decodeCursor(patientId: number, cursor: string): string {
  const m = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m || Number(m[1]) !== patientId) throw invalidCursor();
  return m[2]!;
}
/** The transaction id a delta-read cursor of this patient names, or null when it is not one (offline sync, decision 061). */
export function cursorSince(patientId: number, cursor: string): string | null {
  const m = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return m && Number(m[1]) === patientId ? m[2]! : null;
}
const invalidCursor = (): AppError => new AppError('INVALID_CURSOR', 'This cursor is not one this patient\u2019s changes gave out');

/**
 * GET /api/patients/{id}/changes?since=<cursor>: the rows created, edited or entered in error since the cursor (every
 * row without one) and the next cursor. 400 INVALID_CURSOR for a cursor of another patient or one never given out;
 * 404/403 as a record open; audited as VIEW naming how many rows were returned.
 */
export async function readRecordChanges(
  c: RecordCaller,
  { patientId, since }: { patientId: number; since: string | undefined },
): Promise<ChangesResponse> {
  const cursor = since === undefined ? null : { raw: since, since: decodeCursor(patientId, since) };
  // One statement: the scope's gate (the cached actor's confirmation, decisions 028 and 059), grant check, the changed
  // rows and the audit row.
  const { read } = await inGatedStatement(c, async ({ actorSlots }) => {
    const read = await readChangesAudited(c.db, c.actor.userId, patientId, cursor, c.now, recordOpenAudit(c, patientId), actorSlots);
    return { gate: actorGate(!('unconfirmed' in read)), read };
  });
  if (!read.found) throw patientNotFound();
  if (!read.granted) throw read.survivorId === null ? accessNotConfirmed() : patientJoined(read.survivorId, read.survivorIdNumber);
  if (!read.cursorKnown) throw invalidCursor();
  const changes: ChangesResponse['changes'] = [];
  for (const kind of RECORD_KINDS) {
    for (const stored of read.rows[kind] ?? []) {
      const row = presentRow(kind, stored) as (Record<string, unknown> & { enteredInErrorAt: string | null }) | null;
      const { uuid, id, version } = stored as { uuid: string; id: number; version: number };
      const state = row === null ? 'withheld' : row.enteredInErrorAt ? 'entered-in-error' : 'current';
      changes.push({ kind, uuid, id, version, state, row });
    }
  }
  return { cursor: encodeCursor(patientId, read.xmin), changes };
}
