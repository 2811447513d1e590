// Audit Logs tab (SPEC §2): filters, Apply Filters, and the log table; a dash marks a missing value.
import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { formatAuditTimestamp } from '../../../lib/dates';
import type { TFunction } from '../../../lib/translator';
import { AUDIT_ACTIONS, AUDIT_RESOURCE_TYPES, type AuditLogEntry } from '../../../../contracts/audit';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { FormField } from '../../../components/ui/form-field';
import { DateInput } from '../../../components/ui/date-input';
import { Input } from '../../../components/ui/input';
import { NativeSelect } from '../../../components/ui/native-select';
import { errorText } from '../../../lib/error-text';
import { auditLogsQueryOptions, type FilterParams } from '../api/audit';
import { actionTone } from './badges';

/**
 * The actor as the reader's language names it: a patient's own portal events are stored as "Patient <id>" (the
 * chain keeps what was written), shown as the translated word with the number (issue 21 item 19).
 */
export function actorName(t: TFunction, row: Pick<AuditLogEntry, 'userId' | 'userName'>): string {
  const patient = /^patient:(\d+)$/.exec(row.userId);
  return patient ? t('patientActor', { id: patient[1] }) : row.userName;
}

const dash = (v: string | number | null | undefined): string | number => (v === null || v === undefined || v === '' ? '-' : v);
const emptyFilters = { userId: '', patientId: '', resourceType: 'all', action: 'all', dateFrom: '', dateTo: '' };

export function AuditLogsTab(): React.JSX.Element {
  const { t } = useTranslation(['audit', 'common', 'validation']);
  const [draft, setDraft] = useState(emptyFilters);
  const [applied, setApplied] = useState<FilterParams>(emptyFilters);
  const [rangeReversed, setRangeReversed] = useState(false);
  const logs = useInfiniteQuery(auditLogsQueryOptions(applied));
  const rows = logs.data?.pages.flat() ?? [];
  const set = (k: keyof typeof emptyFilters) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) =>
    setDraft((d) => ({ ...d, [k]: e.target.value }));
  const all = { value: 'all', label: t('all') };

  return (
    <div className="flex flex-col gap-4">
      <form
        className="grid gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-3 lg:grid-cols-6"
        onSubmit={(e) => {
          e.preventDefault();
          // A reversed range is refused here, by the field, instead of sending a request the server refuses.
          const reversed = draft.dateFrom !== '' && draft.dateTo !== '' && draft.dateTo < draft.dateFrom;
          setRangeReversed(reversed);
          if (!reversed) setApplied({ ...draft });
        }}
        aria-label={t('filters')}
      >
        <FormField label={t('userId')}>
          <Input value={draft.userId} onChange={set('userId')} maxLength={256} />
        </FormField>
        <FormField label={t('patientId')}>
          <Input value={draft.patientId} onChange={set('patientId')} inputMode="numeric" maxLength={10} />
        </FormField>
        <FormField label={t('resourceType')}>
          <NativeSelect
            value={draft.resourceType}
            onChange={set('resourceType')}
            options={[all, ...AUDIT_RESOURCE_TYPES.map((r) => ({ value: r, label: t(`resourceTypes.${r}`) }))]}
          />
        </FormField>
        <FormField label={t('action')}>
          <NativeSelect
            value={draft.action}
            onChange={set('action')}
            options={[all, ...AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`actions.${a}`) }))]}
          />
        </FormField>
        <FormField label={t('dateFrom')}>
          <DateInput value={draft.dateFrom} onChange={(dateFrom) => setDraft((d) => ({ ...d, dateFrom }))} />
        </FormField>
        <FormField label={t('dateTo')} error={rangeReversed ? t('validation:dateRangeOrder') : undefined}>
          <DateInput value={draft.dateTo} onChange={(dateTo) => setDraft((d) => ({ ...d, dateTo }))} />
        </FormField>
        <div className="sm:col-span-3 lg:col-span-6">
          <Button type="submit">{t('applyFilters')}</Button>
        </div>
      </form>
      {logs.isPending ? (
        <p role="status">{t('loadingLogs')}</p>
      ) : logs.isError ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-danger-600">
          {t('fetchLogsFailed')}: {errorText(t, logs.error, t('common:anError'))}
        </p>
      ) : rows.length === 0 ? (
        <p className="text-slate-600">{t('noLogs')}</p>
      ) : (
        <>
          <ScrollRegion label={t('logsTable')}>
            <table className="w-full text-left text-sm">
              <caption className="sr-only">{t('logsCaption', { count: rows.length })}</caption>
              <thead className="bg-slate-50 text-slate-600">
                <tr>
                  {['timestamp', 'user', 'action', 'resource', 'patientId', 'ipAddress'].map((c) => (
                    <th key={c} scope="col" className="px-3 py-2 font-medium">
                      {t(`columns.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {rows.map((row) => (
                  <tr key={row.id}>
                    <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{formatAuditTimestamp(row.timestamp)}</td>
                    <td className="px-3 py-2">
                      <div>{actorName(t, row)}</div>
                      <div className="font-mono text-xs text-slate-500">{row.userId}</div>
                    </td>
                    <td className="px-3 py-2">
                      <Badge tone={actionTone(row.action)}>{t(`actions.${row.action}`, { defaultValue: row.action })}</Badge>
                    </td>
                    <td className="px-3 py-2">
                      <div>{t(`resourceTypes.${row.resourceType}`, { defaultValue: row.resourceType })}</div>
                      <div className="text-xs text-slate-500">{dash(row.resourceId)}</div>
                    </td>
                    <td className="px-3 py-2">{dash(row.patientId)}</td>
                    <td className="px-3 py-2 font-mono text-xs">{dash(row.ipAddress)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
          <div className="flex flex-wrap items-center gap-3">
            <p aria-live="polite" className="text-sm text-slate-700">
              {t('logsShown', { count: rows.length })}
              {logs.hasNextPage ? '' : ` ${t('allLogsShown')}`}
            </p>
            <LoadMoreButton list={logs} label={t('showOlder')} pendingText={t('loadingOlder')} size="sm" />
          </div>
        </>
      )}
    </div>
  );
}
