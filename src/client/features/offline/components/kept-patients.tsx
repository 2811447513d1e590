// Search among the patients kept on this device (issue 27 item 3): says plainly that it covers only those records, and
// lists the patients registered here offline (provisional until the server has them).
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { OfflinePatient } from '../../../../contracts/offline';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { formatDate } from '../../../lib/dates';
import type { OfflineEngine } from '../engine/offline-engine';

export function KeptPatients({ engine, onOpen }: { engine: OfflineEngine; onOpen: (patientId: number) => void }): React.JSX.Element {
  const { t } = useTranslation(['offline', 'search']);
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<OfflinePatient[] | null>(null);
  useEffect(() => {
    let live = true;
    void engine.searchPatients(query.trim()).then((p) => live && setFound(p));
    return () => {
      live = false;
    };
  }, [engine, query]);
  return (
    <section aria-labelledby="offline-patients" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="offline-patients" className="text-lg font-semibold">
        {t('area.patients')}
      </h2>
      <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">{t('area.searchScope')}</p>
      <form role="search" aria-labelledby="offline-patients" onSubmit={(e) => e.preventDefault()}>
        <FormField label={t('area.search')} hint={t('area.searchHint')}>
          <Input type="search" value={query} onChange={(e) => setQuery(e.target.value)} autoComplete="off" />
        </FormField>
      </form>
      {found === null ? (
        <p role="status">{t('area.loading')}</p>
      ) : (
        <>
          <p role="status" className="text-sm text-slate-700">
            {t('area.found', { count: found.length })}
          </p>
          <ul className="flex flex-col divide-y divide-slate-100">
            {found.map((p) => {
              const name = `${p.lastName}, ${p.firstName}`;
              return (
                <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{name}</span> · <span className="font-mono text-xs">{p.idNumber}</span>
                    <span className="block text-slate-600">
                      {t('search:dob')}: {formatDate(p.dateOfBirth)}
                    </span>
                  </span>
                  <Button size="sm" variant="secondary" onClick={() => onOpen(p.id)} aria-label={t('area.openRecordOf', { name })}>
                    {t('area.openRecord')}
                  </Button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
