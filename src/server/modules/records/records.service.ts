// The clinical record (SPEC §3, §7; DESIGN.md §4, §6, §9): every kind's list of one patient, handled alike through
// the kinds' definitions (modules/records/kinds). Every call runs in one audited data context, opens the patient's
// record through the access module's grant check (a PatientScope) and writes its audit row: reads VIEW, adds CREATE,
// edits UPDATE, entered in error DELETE; a change chains its event and the changed field names, and carries the
// rows as its audit payload (decision 041).
import { createHash } from 'node:crypto';
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
import type { VersionConflict } from '../../../contracts/record-versions';
import { PORTAL_HIDDEN, VERSION_FIELDS } from '../../../contracts/kinds/versioned';
import { canonicalJson, toJsonValue } from '../../audit/canonical-json';
import { staffDisplayName, type PatientActor, type StaffActor } from '../../context/actor';
import { UnconfirmedActorError } from '../../context/actor-check';
import { actorGate, inGatedStatement } from '../../context/statement-gate';
import { inAuditedTransaction, type ContextAuditEntry, type RequestScope } from '../../context/data-context';
import { AppError, validationFailed } from '../../errors/app-error';
import { auditActorOf } from '../../audit/audit-writer';
import { accessNotConfirmed, patientJoined, patientNotFound } from '../access/access.service';
import { readOwnRecordAudited } from './own-record.repository';
import { openPatientRecord, openPatientRecordAsOf, PatientRemoved, type PatientScope } from '../access/patient-scope';
import { readSummaryAudited } from './record-summary.repository';
import { codeEntryOf } from './record-codes';
import { serverKind } from './kinds';
import {
  expectedRow,
  insertItem,
  itemPatient,
  lockItem,
  markEnteredInError,
  selectItem,
  selectList,
  selectOwnAdd,
  updateItem,
  type ChangedBy,
} from './records.repository';
import { findKeyedAdd } from './idempotency.repository';
import { insertOverrides, type ConfirmedChecks } from './medicine-overrides.repository';
import { correctChanged, selectVersion } from './record-versions.repository';
import { noteAlertsShown } from '../medicine-checks/medicine-report.service';
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
  confirmation: Confirmation,
  existing: RecordRows[K] | null,
  /** An item stored entered in error (a FHIR create of a refuted entry) adds nothing current: no warnings to confirm. */
  enteredInError = false,
  /**
   * An offline write (decision 061): its warnings could not be confirmed on the device, so it is stored over them and
   * they are answered (`unconfirmed`) for a review task; none is kept as a confirmed override.
   */
  storeOverWarnings = false,
): Promise<{ values: Record<string, unknown>; checks: ConfirmedChecks; unconfirmed: RecordWarning[] }> {
  const k = serverKind(kind);
  const typed = input as NewRecordItems[RecordKind];
  const code = codeEntryOf(kind, input as { code?: string | null; codeSystem?: string | null });
  const issues = k.validate?.(typed, code) ?? [];
  if (issues.length) throw validationFailed(issues);
  const warnings: RecordWarning[] = enteredInError
    ? []
    : ((await k.check?.(scope, typed, existing ? (existing as { id: number }).id : null)) ?? []);
  // A contraindicated warning (the medicine checks, decision 043) is confirmed only with an override reason.
  const { codes, overrideReason } = confirmation;
  const unconfirmed = warnings.filter((w) => !codes.includes(w.code) || (w.tier === 'contraindicated' && overrideReason === null));
  if (unconfirmed.length && !storeOverWarnings)
    throw new AppError('CONFIRMATION_REQUIRED', 'Confirm the warnings to store this entry', {
      details: {
        warnings: unconfirmed,
        ...(unconfirmed.some((w) => w.tier === 'contraindicated') ? { overrideReasonRequired: true } : {}),
      },
    });
  const values = {
    ...(input as Record<string, unknown>),
    ...(kindContract(kind).coded ? { codeDisplay: code?.display ?? null, codings: codingsKept(kind, input, existing) } : {}),
    ...k.stored?.(typed, { now: c.now, name: staffDisplayName(c.actor) }, existing as RecordRows[RecordKind] | null),
  };
  const kept = storeOverWarnings ? [] : warnings.filter((w) => w.tier !== undefined);
  return { values, checks: { warnings: kept, reason: overrideReason }, unconfirmed: storeOverWarnings ? unconfirmed : [] };
}

/** JSON with every object's keys sorted: a jsonb column gives its keys back in its own order, not the order stored. */
const stableJson = (v: unknown): string =>
  JSON.stringify(v, (_key, value: unknown) =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );

/**
 * The codings an entry keeps (decision 049): those it was sent with, unless an edit changed its words or code and left
 * the codings as they were (they described the entry before the edit, so they go).
 */
function codingsKept(kind: RecordKind, input: unknown, existing: unknown): unknown {
  const next = input as Record<string, unknown>;
  const codings = next.codings ?? null;
  if (!existing || codings === null) return codings;
  const field = kindContract(kind).coded!.field;
  const before = existing as Record<string, unknown>;
  const same = stableJson(codings) === stableJson(before.codings ?? null);
  return same && (next[field] !== before[field] || next.code !== before.code) ? null : codings;
}

/** The warnings a change confirms (`?confirm=`) and the reason for overriding contraindicated ones (`?overrideReason=`). */
export interface Confirmation {
  codes: readonly string[];
  overrideReason: string | null;
}

const NOTHING_CONFIRMED: Confirmation = { codes: [], overrideReason: null };

/** The medicine-check warnings a change was stored over: kept with the reason, their codes named in the audit chain. */
async function keepOverrides(
  c: RecordCaller,
  scope: PatientScope,
  kind: RecordKind,
  row: unknown,
  checks: ConfirmedChecks,
): Promise<Record<string, unknown>> {
  await insertOverrides(scope, kind, row as { id: number; version: number }, checks, { userId: c.actor.userId, ...changedBy(c) });
  return checks.warnings.length ? { overridden: checks.warnings.map((w) => w.code) } : {};
}

const withoutKeys = (row: Record<string, unknown>, keys: Record<string, true>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(row).filter(([k]) => !(k in keys)));

/**
 * A change refused for warnings showed them to the user: the medicine-check ones are counted for the monthly report
 * (decision 045), in a statement of their own because the refused change rolled back. Rethrows the error.
 */
async function shownThenRethrow(c: RecordCaller, err: unknown): Promise<never> {
  if (err instanceof AppError && err.code === 'CONFIRMATION_REQUIRED') {
    const warnings = (err.details?.warnings ?? []) as RecordWarning[];
    await noteAlertsShown(c.db, { userId: c.actor.userId, at: c.now, channel: 'record' }, warnings);
  }
  throw err;
}

/** Who stores a change and when. */
const changedBy = (c: RecordCaller): ChangedBy => ({ now: c.now, name: staffDisplayName(c.actor) });

/** The fields whose values differ between two versions of a row (never the version fields themselves). */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .sort()
    .filter((k) => !(VERSION_FIELDS as readonly string[]).includes(k) && stableJson(before[k] ?? null) !== stableJson(after[k] ?? null));
}

/**
 * The audit row of a change of a clinical row: the event and the names of the fields it changed are chained; the
 * rows themselves are its payload (decision 041), which can be shredded later without breaking the chain.
 */
function changeAudit(
  kind: RecordKind,
  patientId: number,
  action: 'CREATE' | 'UPDATE' | 'DELETE',
  row: { id: number; version: number },
  changed: string[],
  payload: { oldValues?: unknown; newValues?: unknown },
  event: Record<string, unknown> = {},
): ContextAuditEntry {
  return entry(kind, patientId, { action, resourceId: row.id, newValues: { version: row.version, changed, ...event }, payload });
}

/** An add and whether it repeats an earlier one (the same Idempotency-Key and body). */
export interface AddResult<K extends RecordKind> {
  row: RecordRows[K];
  replayed: boolean;
}

/** Thrown inside an add's transaction when its key was taken: the add rolls back and answers as a replay. */
class KeyTaken extends Error {}

const requestHash = (kind: RecordKind, patientId: number, input: unknown): string =>
  createHash('sha256')
    .update(canonicalJson(toJsonValue({ kind, patientId, input })))
    .digest('hex');

/** The earlier add a key stands for: its row again, or 409 IDEMPOTENCY_KEY_REUSED when it was another request. */
async function replay<K extends RecordKind>(c: RecordCaller, kind: K, hash: string, key: string): Promise<AddResult<K> | null> {
  const earlier = await findKeyedAdd(c.db, c.actor.userId, key);
  if (!earlier) return null;
  if (earlier.requestHash !== hash || earlier.kind !== kind)
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another request', { details: { key } });
  const row = await selectOwnAdd(c.db, kind, earlier.itemId);
  if (!row) throw notFound(kind);
  return { row, replayed: true };
}

/**
 * POST /api/patients/{id}/<kind>: stores the item as version 1 and returns the stored row; audited as CREATE. With
 * an Idempotency-Key (the staff member's own UUID for this add) the same add sent again answers the first one's row,
 * with no second row and no second audit row; the same key with another request is 409 IDEMPOTENCY_KEY_REUSED.
 * The key is claimed by the statement that stores the row, so a new key costs no read of its own: an add that is
 * refused, or finds its key taken, looks the key up then and answers as the earlier add did. A cached actor on the
 * scope's gate is confirmed by the grant check's statement (decision 028).
 */
export async function addRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  patientId: number,
  input: NewRecordItem<K>,
  confirmation: Confirmation = NOTHING_CONFIRMED,
  key: string | null = null,
  /** The reason an item is stored entered in error from the start (a FHIR create of a refuted entry, decision 049). */
  enteredInError: string | null = null,
): Promise<AddResult<K>> {
  const hash = key === null ? '' : requestHash(kind, patientId, input);
  try {
    const row = await inAuditedTransaction(c, async (ctx) => {
      const scope = await openPatientRecord(ctx, patientId);
      const stored = await storedValues(c, scope, kind, input, confirmation, null, enteredInError !== null);
      const { checks } = stored;
      const values =
        enteredInError === null
          ? stored.values
          : {
              ...stored.values,
              enteredInErrorAt: c.now.toISOString(),
              enteredInErrorBy: staffDisplayName(c.actor),
              enteredInErrorReason: enteredInError,
            };
      const keyed = key === null ? null : { userId: c.actor.userId, key, requestHash: hash };
      const row = await insertItem(scope, kind, values, changedBy(c), keyed);
      if (row === null) throw new KeyTaken();
      const event = await keepOverrides(c, scope, kind, row, checks);
      await serverKind(kind).afterChange?.(scope);
      return ctx.audited(
        row,
        changeAudit(kind, patientId, 'CREATE', row as { id: number; version: number }, [], { newValues: row }, event),
      );
    });
    return { row, replayed: false };
  } catch (err) {
    if (key === null || err instanceof UnconfirmedActorError) return shownThenRethrow(c, err);
    // The same add sent before answers as it did then, whatever this one met (a key taken, a grant since expired).
    const earlier = await replay(c, kind, hash, key);
    if (!earlier) return shownThenRethrow(c, err);
    return earlier;
  }
}

/** A write a device made offline (issue 27, decision 061), applied by sync as an add with these differences. */
export interface OfflineAdd {
  /** The device's time, give or take the clock skew allowed: a grant whose window met it stands for a live one. */
  window: { from: Date; to: Date };
  /** The hash of what the device sent under its clientId (the key): the same write again matches it. */
  requestHash: string;
  /** Added to the CREATE row's new values: the device, its time, the clientId. */
  event: Record<string, unknown>;
  /**
   * In the add's transaction, once the row is stored: opens the review task the write needs (the record changed since
   * the device saw it; warnings stored unconfirmed) and answers its id, or null.
   */
  afterStore(scope: PatientScope, row: { id: number }, warnings: readonly RecordWarning[]): Promise<number | null>;
}

/**
 * An add a device made offline (decision 061), as POST /api/patients/{id}/<kind> with the clientId as its
 * Idempotency-Key: the same write again answers the first one's row (`replayed`), with no second row or audit row.
 * Unlike an online add: the grant may be one whose window covered the device's time; warnings are not refused
 * (nobody could confirm them offline) but stored over and handed to `afterStore`, which opens the review task.
 */
export async function addOfflineRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  patientId: number,
  input: NewRecordItem<K>,
  key: string,
  offline: OfflineAdd,
): Promise<AddResult<K> & { reviewId: number | null }> {
  try {
    return await inAuditedTransaction(c, async (ctx) => {
      const scope = await openPatientRecordAsOf(ctx, patientId, offline.window);
      const { values, unconfirmed } = await storedValues(c, scope, kind, input, NOTHING_CONFIRMED, null, false, true);
      const row = await insertItem(scope, kind, values, changedBy(c), { userId: c.actor.userId, key, requestHash: offline.requestHash });
      if (row === null) throw new KeyTaken();
      const stored = row as { id: number; version: number };
      await serverKind(kind).afterChange?.(scope);
      const reviewId = await offline.afterStore(scope, stored, unconfirmed);
      const event = {
        ...offline.event,
        ...(reviewId === null ? {} : { reviewId }),
        ...(unconfirmed.length ? { unconfirmed: unconfirmed.map((w) => w.code) } : {}),
      };
      return ctx.audited({ row, replayed: false, reviewId }, changeAudit(kind, patientId, 'CREATE', stored, [], { newValues: row }, event));
    });
  } catch (err) {
    if (err instanceof UnconfirmedActorError) throw err;
    const earlier = await replay(c, kind, offline.requestHash, key);
    if (!earlier) throw err;
    return { ...earlier, reviewId: null };
  }
}

/** The names of a kind's input fields (the same for every clock), built once. */
const INPUT_KEYS = new Map<RecordKind, string[]>();
function inputKeys(kind: RecordKind): string[] {
  let keys = INPUT_KEYS.get(kind);
  if (!keys) INPUT_KEYS.set(kind, (keys = Object.keys((kindContract(kind).input(() => new Date()) as z.ZodObject).shape)));
  return keys;
}

/** The input fields of a stored row: what an edit starts from. */
const inputOf = (kind: RecordKind, row: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(inputKeys(kind).map((key) => [key, row[key]]));

/** The first version of a row stored before versions existed, kept when it is first changed: the row, or null. */
const legacyFirst = (row: Record<string, unknown> & { version: number }): Record<string, unknown> | null =>
  row.version === 1 ? row : null;

/** 409 VERSION_CONFLICT: the row as stored now, and which fields changed since the version the edit was made from. */
async function versionConflict(
  scope: PatientScope,
  kind: RecordKind,
  current: Record<string, unknown>,
  version: number,
): Promise<AppError> {
  const then = await selectVersion(scope, kind, current.id as number, version);
  const details: VersionConflict = { current, changed: then ? changedFields(then, current) : [] };
  return new AppError('VERSION_CONFLICT', `This entry was changed since version ${version}`, { details: { ...details } });
}

/**
 * PATCH /api/<kind>/{id}: the fields sent replace the stored ones, and the whole item is checked again as an add
 * would be. `version` is the one If-Match named: another than the stored one is 409 VERSION_CONFLICT. 404 for an
 * unknown or entered-in-error id; 403 (nothing changed) without a grant for its patient; audited as UPDATE with the
 * changed field names.
 */
export async function updateRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  id: number,
  version: number,
  /** The fields to replace, or how to work them out from the stored row (a FHIR update: decision 053). */
  patch: Record<string, unknown> | ((current: RecordRows[K]) => Record<string, unknown>),
  confirmation: Confirmation = NOTHING_CONFIRMED,
  /** The kind's input schema on the server's clock, when the caller has it built (the routes do): else built here. */
  schema: z.ZodType = KIND_CONTRACTS[kind].input(() => c.now),
  /** The patient the caller says the item is about (a FHIR update's subject): another one is 400, nothing changed. */
  patientId?: number,
): Promise<RecordRows[K]> {
  return inAuditedTransaction(c, async (ctx) => {
    const item = await lockItem(ctx, kind, id);
    if (item === null) throw notFound(kind);
    const scope = await openPatientRecord(ctx, item.patientId);
    if (!item.row) throw notFound(kind);
    if (patientId !== undefined && patientId !== item.patientId)
      throw validationFailed([{ path: 'patient', message: 'An entry stays with the patient it was recorded for' }]);
    const current = item.row as RecordRows[K] & Record<string, unknown> & { id: number; version: number };
    if (current.version !== version) throw await versionConflict(scope, kind, current, version);
    const parsed = schema.safeParse({ ...inputOf(kind, current), ...(typeof patch === 'function' ? patch(current) : patch) });
    if (!parsed.success) throw validationFailed(parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })));
    const { values, checks } = await storedValues(c, scope, kind, parsed.data as NewRecordItem<K>, confirmation, current);
    // The version row is stored with the change, naming the fields it is expected to change; should the database
    // have stored a value otherwise than it was given (a number rounded to its column's scale), the names are put right.
    const expected = changedFields(current, { ...current, ...expectedRow(kind, values) });
    const row = await updateItem(scope, kind, id, version, values, changedBy(c), { changed: expected, legacyFirst: legacyFirst(current) });
    if (!row) throw notFound(kind);
    const changed = changedFields(current, row as Record<string, unknown>);
    const next = row as { id: number; version: number };
    if (changed.join() !== expected.join()) await correctChanged(scope, kind, id, next.version, changed);
    const event = await keepOverrides(c, scope, kind, row, checks);
    await serverKind(kind).afterChange?.(scope);
    return ctx.audited(row, changeAudit(kind, item.patientId, 'UPDATE', next, changed, { oldValues: current, newValues: row }, event));
  }).catch((err: unknown) => shownThenRethrow(c, err));
}

/**
 * Sets fields the server keeps itself (never input fields: a laboratory result's report, decision 049) on several
 * current items of one patient, in one transaction: each item its next version, each audited UPDATE naming the fields.
 * `accept` sees the items before anything changes and may refuse them (throw). 404 (nothing changed) when an id is not
 * a current item of the patient; 403 without a grant. The items as stored, in the order of `ids`.
 */
export async function setKeptFields<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  patientId: number,
  ids: readonly number[],
  values: Record<string, unknown>,
  accept: (items: RecordRows[K][]) => void,
): Promise<RecordRows[K][]> {
  return inAuditedTransaction(c, async (ctx) => {
    const scope = await openPatientRecord(ctx, patientId);
    const items = new Map<number, RecordRows[K] & Record<string, unknown> & { id: number; version: number }>();
    // Locked in id order, so two changes of overlapping items wait for each other rather than deadlock.
    for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
      const item = await lockItem(ctx, kind, id);
      if (item === null || item.patientId !== patientId || !item.row) throw notFound(kind);
      items.set(id, item.row as RecordRows[K] & Record<string, unknown> & { id: number; version: number });
    }
    const current = ids.map((id) => items.get(id)!);
    accept(current);
    const rows: RecordRows[K][] = [];
    const audits: ContextAuditEntry[] = [];
    for (const before of items.values()) {
      const changed = changedFields(before, { ...before, ...values });
      const row = await updateItem(scope, kind, before.id, before.version, values, changedBy(c), {
        changed,
        legacyFirst: legacyFirst(before),
      });
      if (!row) throw notFound(kind);
      rows.push(row);
      audits.push(
        changeAudit(kind, patientId, 'UPDATE', row as { id: number; version: number }, changed, { oldValues: before, newValues: row }),
      );
    }
    await serverKind(kind).afterChange?.(scope);
    const byId = new Map(rows.map((r) => [(r as { id: number }).id, r]));
    return ctx.audited(
      ids.map((id) => byId.get(id)!),
      audits[0]!,
      ...audits.slice(1),
    );
  });
}

/**
 * One item by its id (the FHIR API's read): 404 for an unknown id, 403 without a grant for its patient; audited as
 * VIEW. `enteredInError`: an item entered in error is found too (FHIR reads it with its entered-in-error status).
 */
export async function readRecordItem<K extends RecordKind>(
  c: RecordCaller,
  kind: K,
  id: number,
  options: { enteredInError?: boolean } = {},
): Promise<RecordRows[K]> {
  return inAuditedTransaction(c, async (ctx) => {
    const patientId = await itemPatient(ctx, kind, id);
    if (patientId === null) throw notFound(kind);
    const row = await selectItem(await openPatientRecord(ctx, patientId), kind, id, options);
    if (!row) throw notFound(kind);
    return ctx.audited(row, entry(kind, patientId, { action: 'VIEW', resourceId: id, newValues: { item: kind } }));
  });
}

/**
 * DELETE /api/<kind>/{id}: marks the item entered in error with the reason given (decision 041): kept, its next
 * version, left out of every list, shown in its history and to auditors. 404 for an unknown id or one already
 * entered in error; 403 (nothing changed) without a grant for the item's patient; audited as DELETE.
 */
export async function deleteRecordItem(c: RecordCaller, kind: RecordKind, id: number, reason: string | null = null): Promise<void> {
  await inAuditedTransaction(c, async (ctx) => {
    const item = await lockItem(ctx, kind, id);
    if (item === null) throw notFound(kind);
    const scope = await openPatientRecord(ctx, item.patientId);
    if (!item.row) throw notFound(kind);
    const before = item.row as Record<string, unknown> & { version: number };
    const row = await markEnteredInError(scope, kind, id, reason, changedBy(c), legacyFirst(before));
    if (!row) throw notFound(kind); // locked above: only a concurrent change of its patient gets here
    const next = row as { id: number; version: number };
    await serverKind(kind).afterChange?.(scope);
    return ctx.audited(
      undefined,
      changeAudit(kind, item.patientId, 'DELETE', next, ['enteredInError'], { oldValues: before, newValues: row }),
    );
  });
}

/** Who reads a whole record in one statement (the record open, the delta read), for its VIEW PATIENT audit row. */
export const recordOpenAudit = (c: RecordCaller, patientId: number) => ({
  actor: auditActorOf(c.actor),
  meta: c.meta,
  action: 'VIEW' as const,
  resourceType: 'PATIENT' as const,
  resourceId: patientId,
});

/**
 * GET /api/patients/{id}/record-summary: demographics, the five lists and vital signs in one transaction, audited
 * as one VIEW PATIENT row naming what was returned. The list endpoints stay for refreshing one list.
 */
export async function readRecordSummary(c: RecordCaller, patientId: number): Promise<RecordSummary> {
  // One statement: the scope's gate (the cached actor's confirmation, decisions 028 and 059), grant check,
  // demographics, every list and the audit row (record-summary.repository.ts).
  const { read } = await inGatedStatement(c, async ({ actorSlots }) => {
    const read = await readSummaryAudited(c.db, c.actor.userId, patientId, c.now, recordOpenAudit(c, patientId), actorSlots);
    return { gate: actorGate(!('unconfirmed' in read)), read };
  });
  if (!read.found) throw patientNotFound();
  if (!read.granted) throw read.survivorId === null ? accessNotConfirmed() : patientJoined(read.survivorId, read.survivorIdNumber);
  return read.summary;
}

/**
 * The signed-in patient's own record for the portal: demographics and the lists the portal shows (each kind's
 * `portal`), newest first in the record's one order, audited as VIEW PATIENT by the patient (via the portal). Throws
 * PatientRemoved (access module), with no audit row, when the patient no longer exists.
 */
export async function readOwnRecord(
  c: RequestScope<PatientActor>,
): Promise<{ patient: RecordPatient; lists: PortalRows; suspectIssuer: string | null }> {
  // One statement: the scope's gate (a cached session's confirmation, decision 028), the patient, the lists and the
  // audit row (own-record.repository.ts).
  const { own } = await inGatedStatement(c, async ({ actorSlots }) => {
    const audit = { actor: auditActorOf(c.actor), meta: c.meta, action: 'VIEW', resourceType: 'PATIENT' } as const;
    const own = await readOwnRecordAudited(c.db, c.actor.patientId, audit, actorSlots);
    return { gate: actorGate(!('unconfirmed' in own)), own };
  });
  if (!('found' in own) || !own.found) throw new PatientRemoved();
  const lists = Object.fromEntries(
    PORTAL_KINDS.map((k: PortalKind) => {
      const from = KIND_CONTRACTS[k].portal.from as (row: RecordRows[PortalKind]) => Record<string, unknown>;
      return [k, (own.lists[k] as RecordRows[PortalKind][]).map((row) => withoutKeys(from(row), PORTAL_HIDDEN))];
    }),
  ) as PortalRows;
  return { patient: own.patient, lists, suspectIssuer: own.suspectIssuer };
}
