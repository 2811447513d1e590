// The facility's appointments kept on this device (issue 27 item 3): today and the coming days, by day.
import { useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { OfflineAppointment } from '../../../../contracts/offline';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/dates';
import type { OfflineEngine } from '../engine/offline-engine';

export function AppointmentsList({ engine, onOpen }: { engine: OfflineEngine; onOpen: (patientId: number) => void }): React.JSX.Element {
  const { t } = useTranslation('offline');
  const [rows, setRows] = useState<OfflineAppointment[] | null>(null);
  useEffect(() => {
    let live = true;
    void engine.appointments().then((a) => live && setRows(a));
    return () => {
      live = false;
    };
  }, [engine]);
  const days = new Map<string, OfflineAppointment[]>();
  for (const a of [...(rows ?? [])].sort((x, y) => `${x.date} ${x.time ?? ''}`.localeCompare(`${y.date} ${y.time ?? ''}`)))
    days.set(a.date, [...(days.get(a.date) ?? []), a]);
  return (
    <section aria-labelledby="offline-appointments" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="offline-appointments" className="text-lg font-semibold">
        {t('area.appointments')}
      </h2>
      {rows === null ? (
        <p role="status">{t('area.loading')}</p>
      ) : rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t('area.noAppointments')}</p>
      ) : (
        [...days].map(([date, list]) => (
          <div key={date}>
            <h3 className="font-medium">{formatDate(date)}</h3>
            <ul className="mt-1 flex flex-col divide-y divide-slate-100">
              {list.map((a) => (
                <li key={a.appointmentId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                  <span className="min-w-0 text-sm">
                    <span className="font-medium">{a.time ?? t('area.noTime')}</span> · {a.patientName} ·{' '}
                    <span className="font-mono text-xs">{a.idNumber}</span>
                    {a.reason ? <span className="block text-slate-600">{a.reason}</span> : null}
                  </span>
                  <Button
                    size="sm"
                    variant="secondary"
                    onClick={() => onOpen(a.patientId)}
                    aria-label={t('area.openRecordOf', { name: a.patientName })}
                  >
                    {t('area.openRecord')}
                  </Button>
                </li>
              ))}
            </ul>
          </div>
        ))
      )}
    </section>
  );
}
