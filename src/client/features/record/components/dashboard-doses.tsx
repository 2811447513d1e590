// The Medical Dashboard's overdue and due doses (issue 25 item 2): the schedule's status the vaccines section reads
// (the same query, so the two never disagree), each dose with its reason in the reader's language, and a way to the
// vaccines section. Nothing when no dose is overdue or due; a quiet line when the status cannot be read.
import { useTranslation } from '../../../lib/use-translation';
import { Syringe } from 'lucide-react';
import type { DoseState, DoseStatus } from '../../../../contracts/immunization';
import { Button } from '../../../components/ui/button';
import { useImmunizationStatus } from '../api/immunization-status';
import { reasonText } from './immunization-status';

const STATES = ['overdue', 'due'] as const satisfies DoseState[];

function doseText(t: Parameters<typeof reasonText>[0], dose: DoseStatus, state: DoseState): string {
  // The overdue line names how late the dose is; the due line why it is due.
  const reasons = state === 'overdue' ? dose.reasons.filter((r) => r.code === 'OVERDUE') : dose.reasons;
  const why = (reasons.length ? reasons : dose.reasons).map((r) => reasonText(t, r)).join(' ');
  return why ? `${dose.name}: ${why}` : dose.name;
}

export function DashboardDoses({ patientId, onOpenVaccines }: { patientId: number; onOpenVaccines: () => void }): React.JSX.Element | null {
  const { t } = useTranslation('record');
  const status = useImmunizationStatus(patientId);
  if (status.isPending) return null;
  if (status.isError) return <p className="text-sm text-slate-600">{t('immunization.loadFailed')}</p>;
  const groups = STATES.map((state) => ({ state, doses: status.data.doses.filter((d) => d.state === state) })).filter(
    (g) => g.doses.length > 0,
  );
  if (groups.length === 0) return null;
  return (
    <section
      aria-labelledby="dashboard-doses"
      className="flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-slate-900"
    >
      <h3 id="dashboard-doses" className="flex items-center gap-2 font-semibold">
        <Syringe aria-hidden="true" className="h-5 w-5 shrink-0" />
        {t('dashboard.doses.title')}
      </h3>
      {groups.map(({ state, doses }) => (
        <div key={state}>
          <p className="font-semibold">{t(`dashboard.doses.${state}`, { count: doses.length })}</p>
          <ul className="list-disc pl-5 text-sm" aria-label={t(`dashboard.doses.${state}`, { count: doses.length })}>
            {doses.map((d) => (
              <li key={d.dose} className="break-words">
                {doseText(t, d, state)}
              </li>
            ))}
          </ul>
        </div>
      ))}
      <div>
        <Button variant="secondary" onClick={onOpenVaccines}>
          {t('dashboard.doses.open')}
        </Button>
      </div>
    </section>
  );
}
