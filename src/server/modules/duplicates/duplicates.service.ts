// The review queue (issue 24 item 3, decision 046): the pairs with both patients' demographics (a VIEW audit row naming
// the patients shown) and the reviewer's decisions: "different" (never proposed again, with who and why) and "skip".
import type { DuplicateDecisionInput, DuplicatePage, DuplicateQuery, PairStatus } from '../../../contracts/duplicates';
import type { StaffActor } from '../../context/actor';
import { actorRoleAtTheTime } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { AppError } from '../../errors/app-error';
import { listPairs, lockPair, recordDecision } from './duplicates.repository';

export async function readDuplicates(scope: RequestScope<StaffActor>, query: DuplicateQuery): Promise<DuplicatePage> {
  return inAuditedTransaction(scope, async (ctx) => {
    const { items, total } = await listPairs(ctx.tx, query);
    const patientIds = [...new Set(items.flatMap((p) => p.patients.map((x) => x.id)))];
    return ctx.audited(
      { items, page: query.page, pageSize: query.pageSize, total },
      {
        action: 'VIEW',
        resourceType: 'DUPLICATE_PAIR',
        newValues: { criteria: query, resultCount: items.length, patientIds, role: actorRoleAtTheTime(scope.actor) },
      },
    );
  });
}

/** The pair, locked until the transaction ends: for the "same person" decision (modules/patient-joins). */
export const lockDuplicatePair = lockPair;

const DECIDABLE: readonly PairStatus[] = ['open', 'skipped'];

export async function decideDuplicate(
  scope: RequestScope<StaffActor>,
  id: number,
  input: Exclude<DuplicateDecisionInput, { decision: 'same' }>,
): Promise<{ id: number; status: PairStatus }> {
  return inAuditedTransaction(scope, async (ctx) => {
    const pair = await lockPair(ctx.tx, id);
    if (!pair) throw new AppError('DUPLICATE_PAIR_NOT_FOUND', 'Duplicate pair not found');
    if (!DECIDABLE.includes(pair.status))
      throw new AppError('DUPLICATE_PAIR_DECIDED', 'This pair has already been decided', { details: { status: pair.status } });
    const status = input.decision === 'different' ? 'different' : 'skipped';
    const reason = input.reason?.trim() || null;
    const name = `${scope.actor.firstName} ${scope.actor.lastName}`.trim();
    await recordDecision(ctx.tx, id, { status, userId: scope.actor.userId, name, at: scope.now, reason });
    return ctx.audited(
      { id, status },
      {
        action: 'UPDATE',
        resourceType: 'DUPLICATE_PAIR',
        resourceId: id,
        oldValues: { status: pair.status },
        newValues: { status, reason, patientIds: [pair.patientA, pair.patientB], role: actorRoleAtTheTime(scope.actor) },
      },
    );
  });
}

/** The audit row of starting or resuming the registry-wide run. */
export async function auditScanStarted(scope: RequestScope<StaffActor>, progress: object): Promise<void> {
  await inAuditedTransaction(scope, async (ctx) =>
    ctx.audited(null, {
      action: 'CREATE',
      resourceType: 'DUPLICATE_PAIR',
      newValues: { scan: progress, role: actorRoleAtTheTime(scope.actor) },
    }),
  );
}
