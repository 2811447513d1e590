// The medicine checks' monthly report on the Audit screen (issue 25 item 5; decision 045), for auditors and
// administrators: per month and facility the alerts shown and overridden by tier, then the override reasons as
// written. A period of months and a facility narrow it; "Download CSV" saves what is shown.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { TFunction } from '../../../lib/translator';
import { FACILITIES } from '../../../../contracts/constants';
import type { MedicineReport, MedicineReportRow, TierCounts } from '../../../../contracts/medicine-check-report';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { errorText } from '../../../lib/error-text';
import { medicineReportQueryOptions, type FilterParams } from '../api/audit';
import { downloadText } from './download';

const counts = (t: TFunction, c: TierCounts): string =>
  t('medicineReport.counts', { total: c.total, contraindicated: c.contraindicated, serious: c.serious, minor: c.minor });

const cell = (v: string | number | null): string => {
  const text = String(v ?? '');
  return /[",\n\r]/.test(text) || /^[=+\-@]/.test(text) ? `"${text.replace(/^([=+\-@])/, "'$1").replace(/"/g, '""')}"` : text;
};

/** The report as CSV: one line per month and facility, then one per override reason (formula-safe cells). */
export function medicineReportCsv(report: MedicineReport): string {
  const tiers = (c: TierCounts) => [c.contraindicated, c.serious, c.minor, c.total];
  const lines = [
    [
      'month',
      'facility',
      'shown_contraindicated',
      'shown_serious',
      'shown_minor',
      'shown_total',
      'overridden_contraindicated',
      'overridden_serious',
      'overridden_minor',
      'overridden_total',
    ],
    ...report.rows.map((r) => [r.month, r.facility, ...tiers(r.shown), ...tiers(r.overridden)]),
    [],
    ['month', 'facility', 'code', 'reason', 'count'],
    ...report.reasons.map((r) => [r.month, r.facility, r.code, r.reason, r.count]),
  ];
  return `${lines.map((l) => l.map(cell).join(',')).join('\r\n')}\r\n`;
}

function MonthRow({ row }: { row: MedicineReportRow }): React.JSX.Element {
  const { t } = useTranslation('audit');
  return (
    <li className="flex flex-col gap-1 rounded-md border border-slate-200 bg-white p-3 text-sm">
      <p className="font-semibold text-slate-900">
        {row.month} · {row.facility ?? t('medicineReport.noFacility')}
      </p>
      <p>
        <span className="font-medium">{t('medicineReport.shown')}:</span> {counts(t, row.shown)}
      </p>
      <p>
        <span className="font-medium">{t('medicineReport.overridden')}:</span> {counts(t, row.overridden)}
      </p>
    </li>
  );
}

export function MedicineReportTab(): React.JSX.Element {
  const { t } = useTranslation(['audit', 'record', 'common']);
  const [draft, setDraft] = useState<FilterParams>({ from: '', to: '', facility: '' });
  const [applied, setApplied] = useState<FilterParams>({});
  const report = useQuery(medicineReportQueryOptions(applied));
  const set = (k: string) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setDraft({ ...draft, [k]: e.target.value });
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-600">{t('medicineReport.intro')}</p>
      <form
        aria-label={t('medicineReport.filters')}
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-4"
        onSubmit={(e) => {
          e.preventDefault();
          setApplied({ ...draft });
        }}
      >
        <FormField label={t('medicineReport.from')} hint={t('medicineReport.monthHint')}>
          <Input type="month" value={draft.from} onChange={set('from')} />
        </FormField>
        <FormField label={t('medicineReport.to')}>
          <Input type="month" value={draft.to} onChange={set('to')} />
        </FormField>
        <FormField label={t('medicineReport.facility')}>
          <NativeSelect
            value={draft.facility}
            onChange={set('facility')}
            placeholder={t('medicineReport.anyFacility')}
            options={FACILITIES.map((f) => ({ value: f, label: f }))}
          />
        </FormField>
        <div className="flex items-end">
          <Button type="submit">{t('medicineReport.apply')}</Button>
        </div>
      </form>
      {report.isPending ? (
        <p role="status">{t('medicineReport.loading')}</p>
      ) : report.isError ? (
        <p role="alert" className="text-danger-600">
          {errorText(t, report.error, t('medicineReport.error'))}
        </p>
      ) : (
        <section aria-labelledby="medicine-report-title" className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="medicine-report-title" className="font-semibold text-slate-900">
              {t('medicineReport.title', { from: report.data.from, to: report.data.to })}
            </h2>
            <Button
              size="sm"
              variant="secondary"
              onClick={() =>
                downloadText(`medicine-checks-${report.data.from}-${report.data.to}.csv`, medicineReportCsv(report.data), 'text/csv')
              }
            >
              {t('medicineReport.csv')}
            </Button>
          </div>
          <p className="text-sm">
            <span className="font-medium">{t('medicineReport.shown')}:</span> {counts(t, report.data.totals.shown)}
            <br />
            <span className="font-medium">{t('medicineReport.overridden')}:</span> {counts(t, report.data.totals.overridden)}
          </p>
          {report.data.rows.length === 0 ? (
            <p className="text-slate-600">{t('medicineReport.empty')}</p>
          ) : (
            <ul className="flex flex-col gap-2" aria-label={t('medicineReport.months')}>
              {report.data.rows.map((r) => (
                <MonthRow key={`${r.month}-${r.facility ?? ''}`} row={r} />
              ))}
            </ul>
          )}
          <h3 className="font-semibold text-slate-900">{t('medicineReport.reasons')}</h3>
          {report.data.reasons.length === 0 ? (
            <p className="text-slate-600">{t('medicineReport.noReasons')}</p>
          ) : (
            <ul className="flex flex-col gap-2">
              {report.data.reasons.map((r, i) => (
                <li key={i} className="break-words rounded-md border border-slate-200 bg-white p-3 text-sm">
                  <p className="text-slate-600">
                    {r.month} · {r.facility ?? t('medicineReport.noFacility')} · {t(`record:medicineChecks.codes.${r.code}`)}
                  </p>
                  <p>
                    “{r.reason}” <span className="text-slate-600">({t('medicineReport.times', { count: r.count })})</span>
                  </p>
                </li>
              ))}
            </ul>
          )}
          {report.data.reasonsTruncated ? <p className="text-sm text-slate-600">{t('medicineReport.reasonsTruncated')}</p> : null}
        </section>
      )}
    </div>
  );
}
