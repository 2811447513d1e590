// The medicine checks' monthly report (issue 25 item 5; decision 045): alerts shown (every 409 of a record add or
// edit and every CDS Hooks card, recorded by noteAlertsShown), overridden (medicine_check_overrides) and the override
// reasons, per month and facility. For auditors and administrators (reports.read); reading it is audited.
import {
  medicineReportQuery,
  REPORT_REASONS_MAX,
  type AlertChannel,
  type MedicineReport,
  type MedicineReportQueryInput,
  type MedicineReportRow,
  type TierCounts,
} from '../../../contracts/medicine-check-report';
import { MEDICINE_CHECK_TIERS, type MedicineCheckTier } from '../../../contracts/medicine-checks';
import type { RecordWarning } from '../../../contracts/record-warnings';
import type { StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import type { DbOrTx } from '../../db/client';
import { parseOr400 } from '../audit/parse';
import * as repo from './medicine-alerts.repository';

/** A warning or a CDS Hooks card as shown: its code, its tier (none: not a medicine check) and rule and version. */
export type ShownWarning = Pick<RecordWarning, 'code' | 'params'> & { tier?: MedicineCheckTier | undefined };

/**
 * Records the medicine-check alerts a user was shown (the warnings that carry a tier; a duplicate warning is not a
 * medicine check). Called after the refused change rolled back, or beside a CDS Hooks answer.
 */
export async function noteAlertsShown(
  db: DbOrTx,
  by: { userId: string; at: Date; channel: AlertChannel },
  warnings: readonly ShownWarning[],
): Promise<void> {
  const shown = warnings
    .filter((w) => w.tier !== undefined)
    .map((w) => ({
      code: w.code,
      tier: w.tier as string,
      rule: typeof w.params?.rule === 'string' ? w.params.rule : null,
      knowledgeVersion: typeof w.params?.version === 'string' ? w.params.version : null,
    }));
  await repo.insertShownAlerts(db, by, shown);
}

const empty = (): TierCounts => ({ contraindicated: 0, serious: 0, minor: 0, total: 0 });
const isTier = (t: string): t is MedicineCheckTier => (MEDICINE_CHECK_TIERS as readonly string[]).includes(t);

function add(counts: TierCounts, tier: string, n: number): void {
  if (isTier(tier)) counts[tier] += n;
  counts.total += n;
}

const pad = (n: number): string => String(n).padStart(2, '0');
const monthOf = (d: Date): string => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}`;
const firstDay = (month: string): Date => new Date(`${month}-01T00:00:00.000Z`);
const nextMonth = (month: string): Date => {
  const d = firstDay(month);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
};

/** The period asked for, or the 12 months up to and including the current one. */
function periodOf(q: { from?: string | undefined; to?: string | undefined }, now: Date): { from: string; to: string } {
  if (q.from && q.to) return { from: q.from, to: q.to };
  return { from: monthOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1))), to: monthOf(now) };
}

/** GET /api/medicine-checks/report: newest month first, then by facility; audited as VIEW COMPLIANCE_REPORT. */
export async function readMedicineReport(scope: RequestScope<StaffActor>, query: MedicineReportQueryInput): Promise<MedicineReport> {
  const q = parseOr400(medicineReportQuery, query, 'Invalid report period');
  const { from, to } = periodOf(q, scope.now);
  const period: repo.ReportPeriod = { from: firstDay(from), before: nextMonth(to), facility: q.facility };
  const data = await inAuditedTransaction(scope, async (ctx) => {
    const found = {
      shown: await repo.shownCounts(ctx.tx, period),
      overridden: await repo.overriddenCounts(ctx.tx, period),
      reasons: await repo.reasonCounts(ctx.tx, period, REPORT_REASONS_MAX),
    };
    return ctx.audited(found, {
      action: 'VIEW',
      resourceType: 'COMPLIANCE_REPORT',
      newValues: { medicineChecksReport: { from, to, facility: q.facility ?? null } },
    });
  });
  const rows = new Map<string, MedicineReportRow>();
  const totals = { shown: empty(), overridden: empty() };
  const rowOf = (month: string, facility: string | null): MedicineReportRow => {
    const key = JSON.stringify([month, facility]);
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { month, facility, shown: empty(), overridden: empty() }));
    return row;
  };
  for (const c of data.shown) {
    add(rowOf(c.month, c.facility).shown, c.tier, c.n);
    add(totals.shown, c.tier, c.n);
  }
  for (const c of data.overridden) {
    add(rowOf(c.month, c.facility).overridden, c.tier, c.n);
    add(totals.overridden, c.tier, c.n);
  }
  const sorted = [...rows.values()].sort(
    (a, b) => b.month.localeCompare(a.month) || (a.facility ?? '\uffff').localeCompare(b.facility ?? '\uffff'),
  );
  return {
    from,
    to,
    facility: q.facility ?? null,
    rows: sorted,
    totals,
    reasons: data.reasons.slice(0, REPORT_REASONS_MAX),
    reasonsTruncated: data.reasons.length > REPORT_REASONS_MAX,
  };
}
