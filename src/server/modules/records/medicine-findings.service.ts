// The medicine checks read over a whole record (decision 045): GET /api/patients/{id}/medicine-checks lists each
// active coded medicine with every finding it meets, minor ones too (the medicine's details: issue 25 item 4), and the
// CDS Hooks services ask the same of the record and of draft orders. Each is a read of the patient's allergies and
// medicines: grant-checked and audited as VIEW MEDICATION.
import type { RecordMedicineChecks } from '../../../contracts/medicine-checks';
import { inAuditedTransaction } from '../../context/data-context';
import { findingView, type CheckedEntry } from '../medicine-checks/medicine-checks.service';
import { openPatientRecord } from '../access/patient-scope';
import { draftMedicineFindings, recordMedicineFindings, type FindingsOrUnavailable } from './kinds/medicine-checks';
import type { RecordCaller } from './records.service';

const viewOf = (r: FindingsOrUnavailable): RecordMedicineChecks =>
  r.available
    ? {
        available: true,
        version: r.version,
        problem: null,
        medications: r.medicines.map((m) => ({ id: m.id ?? 0, findings: m.findings.map(findingView) })),
      }
    : { available: false, version: null, problem: r.problem, medications: [] };

/** GET /api/patients/{id}/medicine-checks. */
export async function readRecordMedicineChecks(c: RecordCaller, patientId: number): Promise<RecordMedicineChecks> {
  return inAuditedTransaction(c, async (ctx) => {
    const found = viewOf(await recordMedicineFindings(await openPatientRecord(ctx, patientId), false));
    const returned = found.medications.reduce((n, m) => n + m.findings.length, 0);
    return ctx.audited(found, {
      action: 'VIEW',
      resourceType: 'MEDICATION',
      patientId,
      newValues: { medicineChecks: { returned } },
    });
  });
}

/**
 * A CDS Hooks service's read (decision 045): the record's findings (patient-view, each pair once) or the draft
 * orders' (order-select), audited with the hook and its hookInstance.
 */
export async function cdsMedicineFindings(
  c: RecordCaller,
  patientId: number,
  call: {
    hook: string;
    hookInstance: string;
    /** The CDS client's user (context.userId). */
    userId: string;
    drafts: { selected: readonly CheckedEntry[]; others: readonly CheckedEntry[] } | null;
  },
): Promise<FindingsOrUnavailable> {
  return inAuditedTransaction(c, async (ctx) => {
    const scope = await openPatientRecord(ctx, patientId);
    const found =
      call.drafts === null
        ? await recordMedicineFindings(scope, true)
        : await draftMedicineFindings(scope, call.drafts.selected, call.drafts.others);
    const returned = found.available ? found.medicines.reduce((n, m) => n + m.findings.length, 0) : 0;
    return ctx.audited(found, {
      action: 'VIEW',
      resourceType: 'MEDICATION',
      patientId,
      newValues: { cdsHooks: { hook: call.hook, hookInstance: call.hookInstance, userId: call.userId, returned } },
    });
  });
}
