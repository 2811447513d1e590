// Joining two records of one person (issue 24 items 4-5, decision 048): the "same person" decision (joined at once,
// or pending a second reviewer above the clinical-row limit), the second reviewer's approval, undo, and the joins as
// the API lists them. Each runs in one audited transaction that locks both patients in id order; the join and the
// undo write one audit row per patient touched and a security event.
import type { DuplicateSameInput } from '../../../contracts/duplicates';
import type { JoinStatus, PatientJoin } from '../../../contracts/patient-joins';
import type { ContextAuditEntry, DataContext, RequestScope } from '../../context/data-context';
import { inAuditedTransaction } from '../../context/data-context';
import { actorRoleAtTheTime, type StaffActor } from '../../context/actor';
import type { Config } from '../../config';
import type { Thresholds } from '../duplicates/match-scoring';
import { lockDuplicatePair } from '../duplicates/duplicates.service';
import { AppError } from '../../errors/app-error';
import { performJoin, performUndo } from './join-steps';
import { countClinicalRows, lockBoth, type PatientValues } from './join-patients.repository';
import {
  insertJoin,
  insertJoinEvent,
  laterJoinOf,
  liveJoinOf,
  lockJoin,
  markJoined,
  markUndone,
  selectJoins,
  setPairStatus,
  type JoinRow,
} from './joins.repository';

export interface JoinSettings {
  secondReviewRows: number;
  thresholds: Thresholds;
}

export const joinSettingsOf = (config: Pick<Config, 'join' | 'match'>): JoinSettings => ({
  secondReviewRows: config.join.secondReviewRows,
  thresholds: config.match,
});

const nameOf = (a: StaffActor) => `${a.firstName} ${a.lastName}`.trim();
const notFound = () => new AppError('PATIENT_JOIN_NOT_FOUND', 'Patient join not found');
const DECIDABLE = ['open', 'skipped'];

async function securityEvent(
  ctx: DataContext<StaffActor>,
  type: 'PATIENT_JOIN' | 'PATIENT_JOIN_UNDONE',
  description: string,
  metadata: Record<string, unknown>,
): Promise<void> {
  await insertJoinEvent(ctx.tx, {
    type,
    userId: ctx.actor.userId,
    description,
    metadata: { ...metadata, userName: nameOf(ctx.actor) },
    ip: ctx.meta.ip,
    userAgent: ctx.meta.userAgent,
    facility: ctx.actor.facility,
    at: ctx.now,
  });
}

/** One audit row per patient a join or undo touched. */
function patientAudits(
  ctx: DataContext<StaffActor>,
  event: 'joined' | 'undone',
  join: { id: number; survivorId: number; mergedId: number },
  details: Record<string, unknown>,
): [ContextAuditEntry, ContextAuditEntry] {
  const role = actorRoleAtTheTime(ctx.actor);
  const entry = (patientId: number, as: 'survivor' | 'merged'): ContextAuditEntry => ({
    action: 'UPDATE',
    resourceType: 'PATIENT',
    resourceId: patientId,
    patientId,
    newValues: { join: join.id, [event]: as, survivorId: join.survivorId, mergedId: join.mergedId, ...details, role },
  });
  return [entry(join.survivorId, 'survivor'), entry(join.mergedId, 'merged')];
}

/** Both patients locked; 409 when either is joined away already. */
async function lockLivePatients(
  ctx: DataContext<StaffActor>,
  survivorId: number,
  mergedId: number,
): Promise<[PatientValues, PatientValues]> {
  const both = await lockBoth(ctx.tx, survivorId, mergedId);
  if (!both) throw new AppError('PATIENT_NOT_FOUND', 'Patient not found');
  const joined = both.find((p) => p.replacedBy !== null);
  if (joined)
    throw new AppError('PATIENT_ALREADY_JOINED', 'One of these records has already been joined into another record', {
      details: { patientId: joined.id, survivorId: joined.replacedBy },
    });
  return both;
}

async function joinNow(
  ctx: DataContext<StaffActor>,
  join: Pick<JoinRow, 'id' | 'keep'>,
  survivor: PatientValues,
  merged: PatientValues,
  settings: JoinSettings,
  approvedBy: StaffActor | null,
): Promise<{ replaced: JoinRow['replaced']; rowsMoved: number }> {
  const outcome = await performJoin(ctx.tx, join, survivor, merged, { now: ctx.now, thresholds: settings.thresholds });
  await markJoined(ctx.tx, join.id, {
    ...outcome,
    at: ctx.now,
    approvedBy: approvedBy ? { userId: approvedBy.userId, name: nameOf(approvedBy) } : null,
  });
  await securityEvent(ctx, 'PATIENT_JOIN', 'Two patient records were joined', {
    joinId: join.id,
    survivorId: survivor.id,
    mergedId: merged.id,
    rowsMoved: outcome.rowsMoved,
  });
  return outcome;
}

async function joinById(ctx: DataContext<StaffActor>, id: number): Promise<PatientJoin> {
  const [join] = await selectJoins(ctx.tx, { id });
  return join!;
}

/** POST /api/duplicates/{id}/decision with "same": the join, performed at once or pending a second reviewer. */
export async function decideSame(
  scope: RequestScope<StaffActor>,
  pairId: number,
  input: DuplicateSameInput,
  settings: JoinSettings,
): Promise<{ id: number; status: 'same'; joinId: number; join: PatientJoin }> {
  return inAuditedTransaction(scope, async (ctx) => {
    const pair = await lockDuplicatePair(ctx.tx, pairId);
    if (!pair) throw new AppError('DUPLICATE_PAIR_NOT_FOUND', 'Duplicate pair not found');
    if (!DECIDABLE.includes(pair.status))
      throw new AppError('DUPLICATE_PAIR_DECIDED', 'This pair has already been decided', { details: { status: pair.status } });
    const ids = [pair.patientA, pair.patientB];
    if (!ids.includes(input.survivorId)) throw new AppError('JOIN_SURVIVOR_NOT_IN_PAIR', 'The record to keep must be one of the pair');
    const keep = input.keep ?? {};
    if (Object.values(keep).some((v) => !ids.includes(v)))
      throw new AppError('JOIN_KEEP_NOT_IN_PAIR', 'Each value to keep must come from one of the pair');
    const mergedId = input.survivorId === pair.patientA ? pair.patientB : pair.patientA;
    const [survivor, merged] = await lockLivePatients(ctx, input.survivorId, mergedId);
    const pending = await liveJoinOf(ctx.tx, ids);
    if (pending)
      throw new AppError('JOIN_PENDING', 'A join of one of these records is waiting for approval', { details: { joinId: pending.id } });

    const clinicalRows = await countClinicalRows(ctx.tx, ids);
    const reason = input.reason?.trim() || null;
    const joinId = await insertJoin(ctx.tx, {
      pairId,
      survivorId: survivor.id,
      mergedId: merged.id,
      keep,
      clinicalRows,
      reason,
      userId: ctx.actor.userId,
      name: nameOf(ctx.actor),
      at: ctx.now,
    });
    await setPairStatus(ctx.tx, pairId, { status: 'same', userId: ctx.actor.userId, name: nameOf(ctx.actor), at: ctx.now, reason });
    const needsSecond = clinicalRows > settings.secondReviewRows;
    const pairAudit: ContextAuditEntry = {
      action: 'UPDATE',
      resourceType: 'DUPLICATE_PAIR',
      resourceId: pairId,
      oldValues: { status: pair.status },
      newValues: {
        status: 'same',
        joinId,
        pending: needsSecond,
        clinicalRows,
        reason,
        patientIds: ids,
        role: actorRoleAtTheTime(ctx.actor),
      },
    };
    if (needsSecond) return ctx.audited({ id: pairId, status: 'same' as const, joinId, join: await joinById(ctx, joinId) }, pairAudit);
    const outcome = await joinNow(ctx, { id: joinId, keep }, survivor, merged, settings, null);
    return ctx.audited(
      { id: pairId, status: 'same' as const, joinId, join: await joinById(ctx, joinId) },
      pairAudit,
      ...patientAudits(ctx, 'joined', { id: joinId, survivorId: survivor.id, mergedId: merged.id }, outcome),
    );
  });
}

/** POST /api/patient-joins/{id}/approve: a second holder of patients.merge performs a pending join. */
export async function approveJoin(scope: RequestScope<StaffActor>, joinId: number, settings: JoinSettings): Promise<PatientJoin> {
  return inAuditedTransaction(scope, async (ctx) => {
    const join = await lockJoin(ctx.tx, joinId);
    if (!join) throw notFound();
    if (join.status !== 'pending')
      throw new AppError('JOIN_NOT_PENDING', 'This join is not waiting for approval', { details: { status: join.status } });
    if (join.requestedBy === ctx.actor.userId) throw new AppError('APPROVE_OWN_JOIN', 'A second reviewer must approve this join');
    const [survivor, merged] = await lockLivePatients(ctx, join.survivorId, join.mergedId);
    const outcome = await joinNow(ctx, join, survivor, merged, settings, ctx.actor);
    return ctx.audited(await joinById(ctx, joinId), ...patientAudits(ctx, 'joined', join, { ...outcome, approved: true }));
  });
}

/** POST /api/patient-joins/{id}/undo: the ledger replayed backwards (a pending join is cancelled); the pair is open again. */
export async function undoJoin(scope: RequestScope<StaffActor>, joinId: number, reason: string): Promise<PatientJoin> {
  return inAuditedTransaction(scope, async (ctx) => {
    const join = await lockJoin(ctx.tx, joinId);
    if (!join) throw notFound();
    if (join.status === 'undone') throw new AppError('JOIN_ALREADY_UNDONE', 'This join has already been undone');
    await lockBoth(ctx.tx, join.survivorId, join.mergedId);
    const by = { userId: ctx.actor.userId, name: nameOf(ctx.actor), at: ctx.now, reason: reason.trim() };
    if (join.status === 'pending') {
      await markUndone(ctx.tx, joinId, by);
      if (join.pairId !== null) await setPairStatus(ctx.tx, join.pairId, { status: 'open' });
      return ctx.audited(await joinById(ctx, joinId), {
        action: 'UPDATE',
        resourceType: 'DUPLICATE_PAIR',
        resourceId: join.pairId,
        newValues: { status: 'open', joinId, cancelled: true, reason: by.reason, role: actorRoleAtTheTime(ctx.actor) },
      });
    }
    const later = await laterJoinOf(ctx.tx, join.survivorId);
    if (later !== null) throw new AppError('JOIN_UNDO_LATER_FIRST', 'Undo the later join first', { details: { joinId: later } });
    const outcome = await performUndo(ctx.tx, join, { now: ctx.now });
    await markUndone(ctx.tx, joinId, by);
    if (join.pairId !== null) await setPairStatus(ctx.tx, join.pairId, { status: 'open' });
    await securityEvent(ctx, 'PATIENT_JOIN_UNDONE', 'A join of two patient records was undone', {
      joinId,
      survivorId: join.survivorId,
      mergedId: join.mergedId,
      ...outcome,
    });
    return ctx.audited(await joinById(ctx, joinId), ...patientAudits(ctx, 'undone', join, { ...outcome, reason: by.reason }));
  });
}

/** GET /api/patient-joins and /api/patient-joins/{id}: audited as a VIEW naming the patients shown. */
export async function readJoins(
  scope: RequestScope<StaffActor>,
  where: { id?: number; status?: JoinStatus; patientId?: number },
): Promise<PatientJoin[]> {
  return inAuditedTransaction(scope, async (ctx) => {
    const joins = await selectJoins(ctx.tx, where);
    if (where.id !== undefined && joins.length === 0) throw notFound();
    const patientIds = [...new Set(joins.flatMap((j) => [j.survivor.id, j.merged.id]))];
    return ctx.audited(joins, {
      action: 'VIEW',
      resourceType: 'PATIENT_JOIN',
      resourceId: where.id ?? null,
      newValues: { criteria: where, resultCount: joins.length, patientIds, role: actorRoleAtTheTime(ctx.actor) },
    });
  });
}
