// The Medical Dashboard (SPEC §2, §9): critical alerts at the top, age, the counters, then the panels. What each kind
// adds (alerts, counters, the rows of a panel part) is decided by its contract and put in order by
// contracts/record-dashboard.ts for the clinic's today; each kind's client file (kinds/) draws its parts. Below the
// title, the schedule's overdue and due doses (dashboard-doses.tsx) with a way to the vaccines section.
import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { AlertTriangle } from 'lucide-react';
import type { RecordPatient } from '../../../../contracts/access';
import { medicalDashboard } from '../../../../contracts/record-dashboard';
import { todayIso } from '../../../../contracts/calendar';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { useRecordLists } from '../api/record-queries';
import { kindView } from '../kinds';
import { DashboardDoses } from './dashboard-doses';

function Counter({ label, value, hint }: { label: string; value: number; hint?: string | undefined }): React.JSX.Element {
  return (
    <section aria-label={label} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <p className="text-sm font-medium text-slate-600">{label}</p>
      <p className="mt-1 text-3xl font-bold text-slate-900">{value}</p>
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
    </section>
  );
}

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }): React.JSX.Element {
  return (
    <Card aria-labelledby={id} role="region">
      <CardHeader>
        <CardTitle id={id}>{title}</CardTitle>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

export function MedicalDashboard({
  patient,
  patientId,
  onOpenVaccines,
}: {
  patient: RecordPatient | undefined;
  patientId: number;
  /** Shows the vaccines section with focus on its schedule. */
  onOpenVaccines: () => void;
}): React.JSX.Element {
  const { t } = useTranslation('record');
  const lists = useRecordLists(patientId);
  const d = medicalDashboard({ ...lists, dateOfBirth: patient?.dateOfBirth ?? null }, todayIso());
  const alerts = d.alerts.map((a) => kindView(a.kind).dashboard?.alert?.(a, t) ?? t(`alerts.${a.key}`, a.params ?? {}));

  return (
    <section aria-labelledby="record-dashboard" className="flex flex-col gap-4">
      {alerts.length > 0 ? (
        <div role="alert" aria-label={t('dashboard.alertsLabel')} className="flex flex-col gap-2">
          {alerts.map((alert) => (
            <p
              key={alert}
              className="flex items-center gap-2 break-words rounded-md border border-red-700 bg-danger-600 px-4 py-3 font-semibold text-white"
            >
              <AlertTriangle aria-hidden="true" className="h-5 w-5 shrink-0" />
              <span className="min-w-0">{alert}</span>
            </p>
          ))}
        </div>
      ) : null}
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="record-dashboard" className="text-xl font-semibold">
          {t('dashboard.title')}
        </h2>
        {d.age !== null ? <p className="text-sm text-slate-600">{t('dashboard.age', { age: d.age })}</p> : null}
      </div>
      <DashboardDoses patientId={patientId} onOpenVaccines={onOpenVaccines} />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {d.counters.map((c) => (
          <Counter
            key={c.key}
            label={t(`dashboard.counters.${c.key}`)}
            value={c.value}
            hint={c.hint ? t(`dashboard.counters.${c.key}Hint`) : undefined}
          />
        ))}
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        {d.panels.map(({ panel, empty, parts }) => {
          const shown = parts.filter((p) => p.rows.length > 0);
          return (
            <Panel key={panel} id={`dashboard-${panel}`} title={t(`dashboard.${panel}`)}>
              {shown.length === 0 ? (
                <p className="text-sm text-slate-600">{t(`dashboard.${empty}`)}</p>
              ) : (
                <div className="flex flex-col gap-3 text-sm">
                  {shown.map((p) => (
                    <div key={`${p.kind}-${p.heading ?? ''}`}>
                      {kindView(p.kind).dashboard?.part?.({ panel, heading: p.heading, rows: p.rows as never[] }, t)}
                    </div>
                  ))}
                </div>
              )}
            </Panel>
          );
        })}
      </div>
    </section>
  );
}
