// Opening one pair for review (issue 24 item 3): the pair as the queue lists it and both whole records side by side,
// audited as a VIEW of each patient (a VIEW PATIENT row per record, reason "duplicate review", with how many rows of
// each list were shown). Behind patients.merge only; no access grant is needed, as with the queue itself.
import type { PairDetail } from '../../../contracts/duplicates';
import { RECORD_KINDS } from '../../../contracts/kinds';
import type { StaffActor } from '../../context/actor';
import { actorRoleAtTheTime } from '../../context/actor';
import { inAuditedTransaction, type ContextAuditEntry, type RequestScope } from '../../context/data-context';
import { AppError } from '../../errors/app-error';
import { pairById } from './duplicates.repository';
import { readPairRecords } from './pair-detail.repository';

export const DUPLICATE_REVIEW_REASON = 'duplicate review';

export async function readPairDetail(scope: RequestScope<StaffActor>, id: number): Promise<PairDetail> {
  return inAuditedTransaction(scope, async (ctx) => {
    const pair = await pairById(ctx.tx, id);
    if (!pair) throw new AppError('DUPLICATE_PAIR_NOT_FOUND', 'Duplicate pair not found');
    const [a, b] = await readPairRecords(ctx.tx, [pair.patients[0].id, pair.patients[1].id]);
    if (!a || !b) throw new AppError('DUPLICATE_PAIR_NOT_FOUND', 'Duplicate pair not found');
    const view = (record: typeof a): ContextAuditEntry => ({
      action: 'VIEW',
      resourceType: 'PATIENT',
      resourceId: record.patient.id,
      patientId: record.patient.id,
      newValues: {
        view: 'DUPLICATE_REVIEW',
        reason: DUPLICATE_REVIEW_REASON,
        pairId: id,
        returned: Object.fromEntries(RECORD_KINDS.map((kind) => [kind, record[kind].length])),
        role: actorRoleAtTheTime(scope.actor),
      },
    });
    return ctx.audited({ ...pair, records: [a, b] }, view(a), view(b));
  });
}
