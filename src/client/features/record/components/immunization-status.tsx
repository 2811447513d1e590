// The schedule's view of a patient's vaccines (issue 25 item 2, decision 044): overdue, due, upcoming and given doses,
// each with its reason rendered from the server's code and parameters in the reader's language; doses recorded as
// free text the schedule cannot place ("not matched", for a nurse to code) and doses not counted. Shown above the
// record's vaccines list and in the portal's vaccines tab; read again whenever the vaccines change.
import { useEffect, useRef } from 'react';
import type { TFunction } from '../../../lib/translator';
import { useTranslation } from '../../../lib/use-translation';
import {
  AGE_PATTERN,
  type DoseReason,
  type DoseState,
  type DoseStatus,
  type ImmunizationStatus,
  type UncountedDose,
} from '../../../../contracts/immunization';
import { Badge, type BadgeTone } from '../../../components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { formatDate } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { useImmunizationStatus } from '../api/immunization-status';
import { useRecordList } from '../api/record-queries';

const TONES: Record<DoseState, BadgeTone> = { overdue: 'red', due: 'yellow', upcoming: 'blue', given: 'green', missed: 'gray' };
const SHOWN: DoseState[] = ['overdue', 'due', 'upcoming', 'given'];

/** An age or interval of the schedule ("6w") in words ("6 weeks"). */
export function ageText(t: TFunction, age: string): string {
  const m = AGE_PATTERN.exec(age);
  if (!m) return age;
  const count = Number(m[1]);
  if (count === 0) return t('record:immunization.units.birth');
  return t(`record:immunization.units.${m[2]}${count === 1 ? 'One' : ''}`, { count });
}

/** A reason in the reader's language: dates as dd/mm/yyyy, ages in words. */
export function reasonText(t: TFunction, reason: DoseReason): string {
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(reason.params)) {
    if (typeof value === 'string' && /date$|Date$/.test(key)) params[key] = formatDate(value);
    else if (typeof value === 'string' && (key === 'age' || key === 'interval')) params[key] = ageText(t, value);
    else if (key === 'weeks') params[key] = ageText(t, `${value}w`);
    else params[key] = value;
  }
  return t(`record:immunization.reasons.${reason.code}`, params);
}

function DoseLine({ dose }: { dose: DoseStatus }): React.JSX.Element {
  const { t } = useTranslation('record');
  return (
    <li className="flex flex-col gap-1 py-2">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">{dose.name}</span>
        <Badge tone={TONES[dose.state]}>{t(`immunization.states.${dose.state}`)}</Badge>
        <span className="text-sm text-slate-600">{formatDate(dose.date)}</span>
      </div>
      <p className="text-sm text-slate-700">{dose.reasons.map((r) => reasonText(t, r)).join(' ')}</p>
    </li>
  );
}

function Uncounted({ title, rows }: { title: string; rows: UncountedDose[] }): React.JSX.Element | null {
  const { t } = useTranslation('record');
  if (rows.length === 0) return null;
  return (
    <div>
      <h3 className="font-semibold">{title}</h3>
      <ul className="divide-y divide-slate-200">
        {rows.map((r) => (
          <li key={r.vaccineId} className="py-2 text-sm">
            <span className="font-medium">{r.vaccine}</span> ({formatDate(r.date)}): {reasonText(t, r.reason)}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function ImmunizationStatusView({ status }: { status: ImmunizationStatus }): React.JSX.Element {
  const { t } = useTranslation('record');
  const missed = status.doses.filter((d) => d.state === 'missed');
  return (
    <div className="flex flex-col gap-4">
      {!status.dateOfBirthKnown ? <p className="text-slate-700">{t('immunization.noDateOfBirth')}</p> : null}
      {SHOWN.map((state) => {
        const doses = status.doses.filter((d) => d.state === state);
        if (doses.length === 0) return null;
        return (
          <div key={state}>
            <h3 className="font-semibold">{t(`immunization.groups.${state}`, { count: doses.length })}</h3>
            <ul className="divide-y divide-slate-200" aria-label={t(`immunization.groups.${state}`, { count: doses.length })}>
              {doses.map((d) => (
                <DoseLine key={d.dose} dose={d} />
              ))}
            </ul>
          </div>
        );
      })}
      <Uncounted title={t('immunization.notMatched')} rows={status.notMatched} />
      <Uncounted title={t('immunization.notCounted')} rows={status.notCounted} />
      {missed.length ? (
        <details>
          <summary className="cursor-pointer font-semibold">{t('immunization.groups.missed', { count: missed.length })}</summary>
          <ul className="divide-y divide-slate-200">
            {missed.map((d) => (
              <DoseLine key={d.dose} dose={d} />
            ))}
          </ul>
        </details>
      ) : null}
      <p className="text-xs text-slate-600">{t('immunization.authority', { version: status.scheduleVersion })}</p>
    </div>
  );
}

/**
 * The card: `patientId` for staff, 'own' in the portal. `vaccinesUpdatedAt`: when the vaccines list last changed, so
 * the status is read again after a dose is recorded. `focusTitle`: the title takes focus when the card mounts (the
 * dashboard's link to the vaccines).
 */
export function ImmunizationStatusCard({
  patientId,
  vaccinesUpdatedAt,
  focusTitle = false,
}: {
  patientId: number | 'own';
  vaccinesUpdatedAt?: number;
  focusTitle?: boolean;
}): React.JSX.Element {
  const { t } = useTranslation(['record', 'common']);
  const status = useImmunizationStatus(patientId);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusTitle) title.current?.focus();
  }, [focusTitle]);
  const first = useRef(true);
  const { refetch } = status;
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void refetch();
  }, [vaccinesUpdatedAt, refetch]);
  let body: React.JSX.Element;
  if (status.isPending) body = <p role="status">{t('common:loading')}</p>;
  else if (status.isError)
    body = (
      <p role="alert" className="text-danger-600">
        {errorText(t, status.error, t('immunization.loadFailed'))}
      </p>
    );
  else body = <ImmunizationStatusView status={status.data} />;
  return (
    <Card>
      <CardHeader>
        <CardTitle ref={title} id="immunization-status" tabIndex={-1} className="focus:outline-none">
          {t('immunization.title')}
        </CardTitle>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}

/** The staff record's card, read again whenever the patient's vaccines list changes. */
export function RecordImmunizationStatus({ patientId, focusTitle }: { patientId: number; focusTitle?: boolean }): React.JSX.Element {
  const vaccines = useRecordList('vaccines', patientId);
  return <ImmunizationStatusCard patientId={patientId} vaccinesUpdatedAt={vaccines.dataUpdatedAt} focusTitle={focusTitle ?? false} />;
}
