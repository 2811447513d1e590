// The Medical Dashboard (SPEC §2, §9): critical alerts from the latest vital signs at the top, age, four counters,
// recent activity, safety information, upcoming appointments and the latest vital signs. The numbers come from
// the pure functions in contracts/record-dashboard.ts, computed for the clinic's today.
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertTriangle } from 'lucide-react';
import type { RecordPatient } from '../../../../contracts/access';
import { medicalDashboard } from '../../../../contracts/record-dashboard';
import { todayIso } from '../../../../contracts/calendar';
import { Badge } from '../../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { useRecordList } from '../api/record-queries';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { vitalsLine } from './record-item';

function Counter({ label, value, hint }: { label: string; value: number; hint?: string }): React.JSX.Element {
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

export function MedicalDashboard({ patient, patientId }: { patient: RecordPatient | undefined; patientId: number }): React.JSX.Element {
  const { t } = useTranslation('record');
  const lists = {
    diagnoses: useRecordList('diagnoses', patientId).data ?? [],
    appointments: useRecordList('appointments', patientId).data ?? [],
    allergies: useRecordList('allergies', patientId).data ?? [],
    medications: useRecordList('medications', patientId).data ?? [],
    vitals: useRecordList('vitals', patientId).data ?? [],
  };
  const d = medicalDashboard({ ...lists, dateOfBirth: patient?.dateOfBirth ?? null }, todayIso());
  const latest = lists.vitals[0];
  const hasSafety = d.criticalAllergies.length > 0 || d.safetyMedications.length > 0;

  return (
    <section aria-labelledby="record-dashboard" className="flex flex-col gap-4">
      {d.alerts.length > 0 ? (
        <div role="alert" aria-label={t('dashboard.alertsLabel')} className="flex flex-col gap-2">
          {d.alerts.map((alert) => (
            <p
              key={alert}
              className="flex items-center gap-2 rounded-md border border-red-700 bg-danger-600 px-4 py-3 font-semibold text-white"
            >
              <AlertTriangle aria-hidden="true" className="h-5 w-5 shrink-0" />
              {t(`alerts.${alert}`)}
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
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Counter label={t('dashboard.counters.activeConditions')} value={d.counters.activeConditions} />
        <Counter label={t('dashboard.counters.currentMedications')} value={d.counters.currentMedications} />
        <Counter
          label={t('dashboard.counters.recentVisits')}
          value={d.counters.recentVisits}
          hint={t('dashboard.counters.recentVisitsHint')}
        />
        <Counter label={t('dashboard.counters.allergies')} value={d.counters.allergies} />
      </div>
      <div className="grid gap-4 lg:grid-cols-2">
        <Panel id="dashboard-recent" title={t('dashboard.recentActivity')}>
          {d.recentActivity.length === 0 ? (
            <p className="text-sm text-slate-600">{t('dashboard.noRecentActivity')}</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {d.recentActivity.map((a) => (
                <li key={a.id}>
                  <p className="font-semibold">{a.type}</p>
                  <p className="text-slate-600">
                    {formatDate(a.date)} · {t('item.byAt', { doctor: a.doctor, facility: a.facility })}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel id="dashboard-safety" title={t('dashboard.safety')}>
          {!hasSafety ? (
            <p className="text-sm text-slate-600">{t('dashboard.noSafety')}</p>
          ) : (
            <div className="flex flex-col gap-3 text-sm">
              {d.criticalAllergies.length > 0 ? (
                <div>
                  <h3 className="font-semibold text-danger-600">{t('dashboard.criticalAllergies')}</h3>
                  <ul className="mt-1 flex flex-wrap gap-2">
                    {d.criticalAllergies.map((a) => (
                      <li key={a.id}>
                        <Badge tone={a.severity === 'Severe' ? 'destructive' : 'red'}>{a.allergen}</Badge>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
              {d.safetyMedications.length > 0 ? (
                <div>
                  <h3 className="font-semibold">{t('dashboard.currentMedications')}</h3>
                  <ul className="mt-1 flex flex-col gap-1">
                    {d.safetyMedications.map((m) => (
                      <li key={m.id}>
                        {m.name} <span className="text-slate-600">({m.dosage})</span>
                      </li>
                    ))}
                  </ul>
                </div>
              ) : null}
            </div>
          )}
        </Panel>
        <Panel id="dashboard-upcoming" title={t('dashboard.upcoming')}>
          {d.upcomingAppointments.length === 0 ? (
            <p className="text-sm text-slate-600">{t('dashboard.noUpcoming')}</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {d.upcomingAppointments.map((a) => (
                <li key={a.id}>
                  <p className="font-semibold">{a.type}</p>
                  <p className="text-slate-600">
                    {t('dashboard.provider', { name: a.doctor })} · {formatDate(a.date)}
                    {a.time ? ` ${a.time}` : ''}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel id="dashboard-vitals" title={t('dashboard.latestVitals')}>
          {latest ? (
            <div className="text-sm">
              <p className="font-semibold">{vitalsLine(latest, t)}</p>
              <p className="text-slate-600">{t('item.recordedBy', { date: formatDateTime(latest.recordedAt), name: latest.recordedBy })}</p>
            </div>
          ) : (
            <p className="text-sm text-slate-600">{t('dashboard.noVitals')}</p>
          )}
        </Panel>
      </div>
    </section>
  );
}
