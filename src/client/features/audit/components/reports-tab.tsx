// Compliance Reports tab (SPEC §2, §5): generate form, filters, table with status badges and downloads.
import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { REPORT_STATUSES, REPORT_TYPES, type ComplianceReportSummary } from '../../../../contracts/audit';
import { REPORT_DETAIL_LIMIT } from '../../../../contracts/compliance-report-data';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { fetchReportData, reportsQueryOptions, useArchiveReport, useGenerateReport, type FilterParams } from '../api/audit';
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
  const reports = useQuery(reportsQueryOptions(filters));
  const generate = useGenerateReport();
  const archive = useArchiveReport();
  // After an archive the row is gone: focus goes to the table, not the page body.
  const tableRef = useRef<HTMLDivElement>(null);
  const onDownload = (r: ComplianceReportSummary): void => {
    fetchReportData(r.id).then(
      (text) => downloadText(reportFileName(r.title, r.id), prettyReportData(text)),
      (error: unknown) =>
        toast({ title: t('downloadFailed'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
    );
  };
  const onArchive = (r: ComplianceReportSummary): void => {
    archive.mutate(r.id, {
      onSuccess: () => {
        toast({ title: t('archived', { title: r.title }) });
        tableRef.current?.focus();
      },
      onError: (error) =>
        toast({ title: t('archiveFailed'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
    });
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
              <Input type="date" value={form.dateFrom} onChange={set('dateFrom')} />
            </FormField>
            <FormField label={t('dateTo')} required>
              <Input type="date" value={form.dateTo} onChange={set('dateTo')} />
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
            onChange={(e) => setFilters((f) => ({ ...f, reportType: e.target.value }))}
            options={[all, ...REPORT_TYPES.map((r) => ({ value: r, label: t(`reportTypes.${r}`) }))]}
          />
        </FormField>
        <FormField label={t('status')}>
          <NativeSelect
            value={filters.status ?? 'all'}
            onChange={(e) => setFilters((f) => ({ ...f, status: e.target.value }))}
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
        ) : reports.data.length === 0 ? (
          <p className="text-slate-600">{t('noReports')}</p>
        ) : (
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
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
                {reports.data.map((r) => (
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
                        <Button
                          size="sm"
                          variant="secondary"
                          aria-label={t('archiveReport', { title: r.title })}
                          disabled={archive.isPending}
                          onClick={() => onArchive(r)}
                        >
                          {t('archive')}
                        </Button>
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </div>
  );
}
