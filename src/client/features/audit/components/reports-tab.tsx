// Compliance Reports tab (SPEC §2, §5): generate form, filters, table with status badges and downloads.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { REPORT_STATUSES, REPORT_TYPES, type ComplianceReportSummary } from '../../../../contracts/audit';
import { REPORT_DETAIL_LIMIT } from '../../../../contracts/compliance-report-data';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { DateInput } from '../../../components/ui/date-input';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import {
  fetchReportData,
  REPORT_PAGE_SIZE,
  reportsQueryOptions,
  useGenerateReport,
  useSetReportArchived,
  type FilterParams,
} from '../api/audit';
import { prettyReportData, reportFileName, reportStatusTone } from './badges';
import { downloadText } from './download';

const emptyForm = { reportType: 'HIPAA', title: '', description: '', dateFrom: '', dateTo: '' };

function dateRangeText(dateRange: string): string {
  try {
    const r = JSON.parse(dateRange) as { from?: string; to?: string };
    return `${r.from ?? '-'} – ${r.to ?? '-'}`;
  } catch {
    return dateRange;
  }
}

export function ReportsTab(): React.JSX.Element {
  const { t } = useTranslation(['audit', 'common']);
  const [form, setForm] = useState(emptyForm);
  const [missing, setMissing] = useState(false);
  const [filters, setFilters] = useState<FilterParams>({ reportType: 'all', status: 'all' });
  const [page, setPage] = useState(1);
  const reports = useQuery(reportsQueryOptions(filters, page));
  const generate = useGenerateReport();
  const setArchived = useSetReportArchived();
  // Archive asks first (issue 21 item 15); the report stays restorable under the Archived filter.
  const [confirming, setConfirming] = useState<ComplianceReportSummary | null>(null);
  // After an archive or a restore the row is gone: focus goes to the table, not the page body.
  const tableRef = useRef<HTMLDivElement>(null);
  // The last report of a later page archived or restored: back to the page before, not an empty page.
  const emptyLaterPage = page > 1 && reports.data?.reports.length === 0;
  useEffect(() => {
    if (emptyLaterPage) setPage((p) => Math.max(1, p - 1));
  }, [emptyLaterPage]);
  const showingArchived = filters.status === 'ARCHIVED';
  const filtered = Object.values(filters).some((v) => v !== 'all' && v !== '');
  const setFilter = (k: string) => (e: React.ChangeEvent<HTMLSelectElement>) => {
    setFilters((f) => ({ ...f, [k]: e.target.value }));
    setPage(1);
  };
  const onDownload = (r: ComplianceReportSummary): void => {
    fetchReportData(r.id).then(
      (text) => downloadText(reportFileName(r.title, r.id), prettyReportData(text)),
      (error: unknown) =>
        toast({ title: t('downloadFailed'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
    );
  };
  const changeArchived = (r: ComplianceReportSummary, archived: boolean, onDone?: () => void): void => {
    setArchived.mutate(
      { id: r.id, archived },
      {
        onSuccess: () => {
          onDone?.();
          toast({ title: t(archived ? 'archived' : 'restored', { title: r.title }) });
          tableRef.current?.focus();
        },
        onError: (error) =>
          toast({
            title: t(archived ? 'archiveFailed' : 'restoreFailed'),
            description: errorText(t, error, t('common:anError')),
            variant: 'destructive',
          }),
      },
    );
  };
  const set = (k: keyof typeof emptyForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setForm((f) => ({ ...f, [k]: e.target.value }));
  const all = { value: 'all', label: t('all') };

  const onGenerate = (e: React.FormEvent): void => {
    e.preventDefault();
    if (!form.title.trim() || !form.dateFrom || !form.dateTo) {
      setMissing(true);
      return;
    }
    setMissing(false);
    generate.mutate(
      {
        reportType: form.reportType as (typeof REPORT_TYPES)[number],
        title: form.title,
        description: form.description || null,
        dateFrom: form.dateFrom,
        dateTo: form.dateTo,
      },
      {
        onSuccess: () => {
          setForm(emptyForm);
          toast({ title: t('generated') });
        },
        onError: (error) =>
          toast({ title: t('generateFailed'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
      },
    );
  };

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{t('generateTitle')}</CardTitle>
        </CardHeader>
        <CardContent>
          <form noValidate onSubmit={onGenerate} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
            <FormField label={t('reportType')}>
              <NativeSelect
                value={form.reportType}
                onChange={set('reportType')}
                options={REPORT_TYPES.map((r) => ({ value: r, label: t(`reportTypes.${r}`) }))}
              />
            </FormField>
            <FormField label={t('reportTitle')} required>
              <Input value={form.title} onChange={set('title')} maxLength={200} />
            </FormField>
            <FormField label={t('description')}>
              <Input value={form.description} onChange={set('description')} maxLength={2000} />
            </FormField>
            <FormField label={t('dateFrom')} required>
              <DateInput value={form.dateFrom} onChange={(dateFrom) => setForm((d) => ({ ...d, dateFrom }))} />
            </FormField>
            <FormField label={t('dateTo')} required>
              <DateInput value={form.dateTo} onChange={(dateTo) => setForm((d) => ({ ...d, dateTo }))} />
            </FormField>
            {missing ? (
              <p role="alert" className="text-sm text-danger-600 sm:col-span-2 lg:col-span-5">
                {t('fillRequired')}
              </p>
            ) : null}
            <div className="sm:col-span-2 lg:col-span-5">
              <Button type="submit" pending={generate.isPending} pendingText={t('generating')}>
                {t('generate')}
              </Button>
            </div>
          </form>
        </CardContent>
      </Card>
      <div className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2" role="group" aria-label={t('filters')}>
        <FormField label={t('reportType')}>
          <NativeSelect
            value={filters.reportType ?? 'all'}
            onChange={setFilter('reportType')}
            options={[all, ...REPORT_TYPES.map((r) => ({ value: r, label: t(`reportTypes.${r}`) }))]}
          />
        </FormField>
        <FormField label={t('status')}>
          <NativeSelect
            value={filters.status ?? 'all'}
            onChange={setFilter('status')}
            options={[all, ...REPORT_STATUSES.map((s) => ({ value: s, label: t(`statuses.${s}`) }))]}
          />
        </FormField>
      </div>
      <div
        ref={tableRef}
        tabIndex={-1}
        aria-label={t('reportList')}
        className="outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
      >
        {reports.isPending ? (
          <p role="status">{t('loadingReports')}</p>
        ) : reports.isError ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-danger-600">
            {t('fetchReportsFailed')}: {errorText(t, reports.error, t('common:anError'))}
          </p>
        ) : reports.data.reports.length === 0 ? (
          <p className="text-slate-600">{t(showingArchived ? 'noArchived' : filtered ? 'noReportsMatch' : 'noReports')}</p>
        ) : (
          <>
            <ScrollRegion label={t('reportsTable')}>
              <table className="w-full text-left text-sm">
                <thead className="bg-slate-50 text-slate-600">
                  <tr>
                    {['report', 'type', 'dateRange', 'generatedBy', 'status', 'download'].map((c) => (
                      <th key={c} scope="col" className="px-3 py-2 font-medium">
                        {t(`reportColumns.${c}`)}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {reports.data.reports.map((r) => (
                    <tr key={r.id}>
                      <td className="px-3 py-2">
                        <div className="font-medium">{r.title}</div>
                        <div className="text-xs text-slate-500">{r.description ?? ''}</div>
                      </td>
                      <td className="px-3 py-2">{t(`reportTypes.${r.reportType}`, { defaultValue: r.reportType })}</td>
                      <td className="whitespace-nowrap px-3 py-2">{dateRangeText(r.dateRange)}</td>
                      <td className="px-3 py-2">{r.generatedBy}</td>
                      <td className="px-3 py-2">
                        <div className="flex flex-col items-start gap-1">
                          <Badge tone={reportStatusTone(r.status)}>{t(`statuses.${r.status}`, { defaultValue: r.status })}</Badge>
                          {r.detailsCapped ? (
                            <span className="text-xs text-slate-600">
                              {t('detailsCapped', { limit: REPORT_DETAIL_LIMIT.toLocaleString() })}
                            </span>
                          ) : null}
                        </div>
                      </td>
                      <td className="px-3 py-2">
                        <div className="flex flex-wrap gap-2">
                          <Button
                            size="sm"
                            variant="secondary"
                            aria-label={t('downloadReport', { title: r.title })}
                            onClick={() => onDownload(r)}
                          >
                            {t('download')}
                          </Button>
                          {showingArchived ? (
                            <Button
                              size="sm"
                              variant="secondary"
                              aria-label={t('restoreReport', { title: r.title })}
                              disabled={setArchived.isPending}
                              onClick={() => changeArchived(r, false)}
                            >
                              {t('restore')}
                            </Button>
                          ) : (
                            <Button
                              size="sm"
                              variant="secondary"
                              aria-label={t('archiveReport', { title: r.title })}
                              disabled={setArchived.isPending}
                              onClick={() => setConfirming(r)}
                            >
                              {t('archive')}
                            </Button>
                          )}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
            <ReportPager page={page} total={reports.data.total} onPage={setPage} />
          </>
        )}
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onCancel={() => setConfirming(null)}
        onConfirm={() => confirming && changeArchived(confirming, true, () => setConfirming(null))}
        title={t('archiveConfirmTitle')}
        description={t('archiveConfirmDescription', { title: confirming?.title ?? '' })}
        confirmText={t('archiveConfirm')}
        cancelText={t('cancel')}
        pending={setArchived.isPending}
        pendingText={t('archiving')}
        returnFocus={() => tableRef.current}
      />
    </div>
  );
}

/** Previous / next page of the report list, with where the user is; nothing when everything fits on one page. */
function ReportPager({ page, total, onPage }: { page: number; total: number; onPage: (page: number) => void }): React.JSX.Element | null {
  const { t } = useTranslation('audit');
  const pages = Math.max(1, Math.ceil(total / REPORT_PAGE_SIZE));
  if (pages <= 1 && page === 1) return null;
  return (
    <nav aria-label={t('reportPages')} className="mt-3 flex flex-wrap items-center gap-2">
      <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        {t('previousPage')}
      </Button>
      <p aria-live="polite" className="text-sm text-slate-700">
        {t('pageOf', { page, pages, total })}
      </p>
      <Button size="sm" variant="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        {t('nextPage')}
      </Button>
    </nav>
  );
}
