// The medicine-check overrides in the privacy/quality review (issue 25 item 4; decision 045): an auditor sees each
// warning a clinician went ahead over (who, when, patient, medicine, finding, reason, knowledge version). Reading the
// list reveals patients, so it is audited as VIEW AUDIT_LOG like the review queue.
import {
  overrideListQuery,
  type MedicineOverride,
  type MedicineOverridePage,
  type OverrideListQueryInput,
} from '../../../contracts/medicine-check-report';
import type { MedicineCheckTier } from '../../../contracts/medicine-checks';
import type { StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { parseOr400 } from '../audit/parse';
import { selectOverrides, type OverrideRow } from './medicine-overrides.repository';

const param = (row: OverrideRow, key: string): string => {
  const v = row.params[key];
  return typeof v === 'string' ? v : '';
};

const toOverride = (row: OverrideRow): MedicineOverride => ({
  id: row.id,
  at: row.at,
  user: { id: row.userId, name: row.userName },
  facility: row.facility,
  patient: { id: row.patientId, name: row.patientName },
  kind: row.kind,
  itemId: row.itemId,
  code: row.code,
  tier: row.tier as MedicineCheckTier,
  substance: param(row, 'substance'),
  other: param(row, 'other'),
  rule: param(row, 'rule'),
  knowledgeVersion: param(row, 'version'),
  reason: row.reason,
});

/** GET /api/privacy-reviews/medicine-overrides: newest first. */
export async function readMedicineOverrides(scope: RequestScope<StaffActor>, query: OverrideListQueryInput): Promise<MedicineOverridePage> {
  const q = parseOr400(overrideListQuery, query, 'Invalid page');
  const page = await inAuditedTransaction(scope, async (ctx) => {
    const found = await selectOverrides(ctx.tx, q.pageSize, (q.page - 1) * q.pageSize);
    return ctx.audited(found, {
      action: 'VIEW',
      resourceType: 'AUDIT_LOG',
      newValues: { medicineOverrides: { page: q.page, returned: found.rows.length } },
    });
  });
  return { items: page.rows.map(toOverride), page: q.page, pageSize: q.pageSize, total: page.total };
}
