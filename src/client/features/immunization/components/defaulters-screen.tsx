// The defaulter list of one's own facility (issue 25 item 3, decision 044): children overdue for a dose due in a date
// range (the last year by default), with the contact details of the family and the last vaccine visit, to call or
// visit them. Printable (the controls are not printed) and downloadable as CSV. Each list shown is audited as a search.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { addDays, todayIso } from '../../../../contracts/calendar';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { DateInput } from '../../../components/ui/date-input';
import { FormField } from '../../../components/ui/form-field';
import { ScrollRegion } from '../../../components/ui/scroll-region';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { defaultersUrl, useDefaulters, type DefaultersCriteria } from '../api/defaulters';

const COLUMNS = ['child', 'dateOfBirth', 'contact', 'nextOfKin', 'lastVisit', 'overdue'] as const;

export function DefaultersScreen({ facility }: { facility: string | null }): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'common', 'validation']);
  const today = todayIso();
  const [draft, setDraft] = useState({ from: addDays(today, -365), to: today });
  const [criteria, setCriteria] = useState<DefaultersCriteria | null>(null);
  const list = useDefaulters(criteria);
  const reversed = draft.from !== '' && draft.to !== '' && draft.from > draft.to;

  if (!facility) return <p role="alert">{t('defaulters.noFacility')}</p>;
  const rows = list.data?.defaulters ?? [];

  return (
    <Card>
      <CardHeader>
        <CardTitle id="defaulters-title">{t('defaulters.title', { facility })}</CardTitle>
        <p className="text-sm text-slate-600">{t('defaulters.intro')}</p>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <form
          className="grid gap-3 print:hidden sm:grid-cols-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (!reversed && draft.from && draft.to) setCriteria({ facility, ...draft });
          }}
        >
          <FormField label={t('defaulters.from')}>
            <DateInput value={draft.from} onChange={(from) => setDraft((d) => ({ ...d, from }))} />
          </FormField>
          <FormField label={t('defaulters.to')} error={reversed ? t('validation:dateRangeOrder') : undefined}>
            <DateInput value={draft.to} onChange={(to) => setDraft((d) => ({ ...d, to }))} />
          </FormField>
          <div className="flex items-end">
            <Button type="submit">{t('defaulters.show')}</Button>
          </div>
        </form>
        {criteria === null ? null : list.isPending ? (
          <p role="status">{t('common:loading')}</p>
        ) : list.isError ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-danger-600">
            {errorText(t, list.error, t('defaulters.loadFailed'))}
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center gap-2 print:hidden">
              <p role="status" className="mr-auto text-sm text-slate-700">
                {t(list.data.truncated ? 'defaulters.countTruncated' : 'defaulters.count', { count: rows.length })}
              </p>
              <Button variant="secondary" onClick={() => window.print()}>
                {t('defaulters.print')}
              </Button>
              <a className="text-sm font-medium text-brand-700 underline" href={defaultersUrl(criteria, 'csv')} download>
                {t('defaulters.csv')}
              </a>
            </div>
            <p className="hidden text-sm print:block">
              {t('defaulters.printedRange', {
                from: formatDate(criteria.from),
                to: formatDate(criteria.to),
                today: formatDate(list.data.today),
              })}
            </p>
            {rows.length === 0 ? (
              <p className="text-slate-600">{t('defaulters.none')}</p>
            ) : (
              <ScrollRegion label={t('defaulters.table')}>
                <table className="w-full text-left text-sm">
                  <thead className="bg-slate-50 text-slate-600">
                    <tr>
                      {COLUMNS.map((c) => (
                        <th key={c} scope="col" className="px-3 py-2 font-medium">
                          {t(`defaulters.columns.${c}`)}
                        </th>
                      ))}
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-slate-100">
                    {rows.map((d) => (
                      <tr key={d.patientId}>
                        <th scope="row" className="px-3 py-2 text-left font-medium">
                          {d.lastName}, {d.firstName}
                        </th>
                        <td className="whitespace-nowrap px-3 py-2">{formatDate(d.dateOfBirth)}</td>
                        <td className="whitespace-nowrap px-3 py-2">{d.contactNumber ?? '-'}</td>
                        <td className="px-3 py-2">
                          {d.nextOfKin || '-'}
                          {d.nextOfKinContact ? <span className="block whitespace-nowrap">{d.nextOfKinContact}</span> : null}
                        </td>
                        <td className="whitespace-nowrap px-3 py-2">{formatDate(d.lastVisit)}</td>
                        <td className="px-3 py-2">
                          <ul>
                            {d.overdue.map((o) => (
                              <li key={o.dose}>{t('defaulters.overdueDose', { name: o.name, date: formatDate(o.dueDate) })}</li>
                            ))}
                          </ul>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}
