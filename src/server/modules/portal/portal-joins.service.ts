// The patient is told (issue 24 item 7, decision 048): "Your records from <facility> and <facility> were joined on
// <date>", and may report a join as wrong, which opens a privacy-review case (once per join and patient). Both are
// audited as the patient's own: the notice as VIEW PATIENT, the report as UPDATE PATIENT naming the join.
import type { PortalJoinReport, PortalJoins } from '../../../contracts/portal-joins';
import type { PatientActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors/app-error';
import { deleteSessionsOfPatient } from './portal-credentials.repository';
import { findReport, insertReport, lockJoin, selectJoinsOf } from './portal-joins.repository';

/** GET /api/patient-portal/joins. */
export async function readPortalJoins(scope: RequestScope<PatientActor>): Promise<PortalJoins> {
  const patientId = scope.actor.patientId;
  return inAuditedTransaction(scope, async (ctx) => {
    const rows = await selectJoinsOf(ctx.tx, patientId);
    const items = rows.map((r) => ({
      id: r.id,
      joinedAt: r.joinedAt,
      facilities: [r.mergedFacility, r.survivorFacility],
      reported: r.reported,
    }));
    return ctx.audited(
      { items },
      { action: 'VIEW', resourceType: 'PATIENT', resourceId: patientId, patientId, newValues: { view: 'JOINS', returned: items.length } },
    );
  });
}

/** POST /api/patient-portal/joins/{id}/report: 404 for a join that is not of this patient's record (or not live). */
export async function reportPortalJoin(scope: RequestScope<PatientActor>, joinId: number): Promise<PortalJoinReport> {
  const patientId = scope.actor.patientId;
  return inAuditedTransaction(scope, async (ctx) => {
    await lockJoin(ctx.tx, joinId);
    const [join] = await selectJoinsOf(ctx.tx, patientId, joinId);
    if (!join) throw new AppError('NOT_FOUND', 'No such join of your records');
    const earlier = await findReport(ctx.tx, joinId, patientId);
    const caseId = earlier ?? (await insertReport(ctx.tx, { join, patientId, ip: ctx.meta.ip, userAgent: ctx.meta.userAgent }));
    return ctx.audited(
      { created: earlier === null, caseId },
      {
        action: 'UPDATE',
        resourceType: 'PATIENT',
        resourceId: patientId,
        patientId,
        newValues: { joinReported: { joinId, survivorId: join.survivorId, mergedId: join.mergedId, caseId, created: earlier === null } },
      },
    );
  });
}

/**
 * Ends every portal session open on these records (in the caller's transaction): a join ends the merged-away record's,
 * an undo the survivor's, since the record each session was opened on has changed hands (decision 048).
 */
export async function endPortalSessions(db: DbOrTx, patientIds: readonly number[]): Promise<void> {
  for (const id of patientIds) await deleteSessionsOfPatient(db, id);
}
