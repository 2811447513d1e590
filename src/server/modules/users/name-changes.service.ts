// A staff member's change of their own name waits for an administrator (issue 21 item 10): the list of requests,
// approving (the name changes; the access history keeps the name each row was written under) and rejecting. Nobody
// decides their own. Audited as UPDATE USER, with a security event.
import type { NameChange } from '../../../contracts/users';
import type { StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { AppError } from '../../errors/app-error';
import { decideNameChange, listPendingNameChanges, pendingNameChangeOwner } from './name-changes.repository';

const notFound = (): AppError => new AppError('NAME_CHANGE_NOT_FOUND', 'No pending name change with this id');

/** GET /api/admin/name-changes: pending requests, oldest first; audited as VIEW USER. */
export function pendingNameChanges(scope: RequestScope<StaffActor>): Promise<NameChange[]> {
  return inAuditedTransaction(scope, async (ctx) => {
    const rows = await listPendingNameChanges(ctx.tx);
    const items = rows.map((r) => ({
      id: r.id,
      userId: r.userId,
      email: r.email,
      role: r.roleName && r.roleDisplayName ? { name: r.roleName, displayName: r.roleDisplayName } : null,
      facility: r.facility,
      from: { firstName: r.oldFirstName, lastName: r.oldLastName },
      to: { firstName: r.firstName, lastName: r.lastName },
      requestedAt: r.requestedAt.toISOString(),
      sameNameAs: r.sameNameAs,
    }));
    return ctx.audited(items, { action: 'VIEW', resourceType: 'USER', newValues: { nameChanges: items.length } });
  });
}

/** POST /api/admin/name-changes/{id}/approve or /reject: 404 unless pending; 403 OWN_ACCOUNT_DECISION for one's own. */
export async function decideOwnNameChange(scope: RequestScope<StaffActor>, id: number, decision: 'approved' | 'rejected'): Promise<void> {
  const { actor, meta } = scope;
  await inAuditedTransaction(scope, async (ctx) => {
    const owner = await pendingNameChangeOwner(ctx.tx, id);
    if (!owner) throw notFound();
    if (owner === actor.userId) throw new AppError('OWN_ACCOUNT_DECISION', 'You cannot decide on your own name change');
    const result = await decideNameChange(ctx.tx, id, decision, actor.userId, ctx.now, {
      eventType: decision === 'approved' ? 'NAME_CHANGE_APPROVED' : 'NAME_CHANGE_REJECTED',
      severity: 'medium',
      description: decision === 'approved' ? 'Name change approved by an administrator' : 'Name change rejected by an administrator',
      metadata: { nameChangeId: id, decidedBy: actor.userId },
      facility: actor.facility,
      ipAddress: meta.ip,
      userAgent: meta.userAgent,
      timestamp: ctx.now,
    });
    if (result === 'missing') throw notFound();
    return ctx.audited(null, {
      action: 'UPDATE',
      resourceType: 'USER',
      resourceId: result.userId,
      oldValues: result.old,
      newValues:
        decision === 'approved' ? { ...result.requested, nameChange: 'approved' } : { nameChange: 'rejected', requested: result.requested },
    });
  });
}
