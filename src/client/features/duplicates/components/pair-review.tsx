// One pair opened for review (issue 24 items 3-4): both whole records side by side on a wide screen, stacked on a
// phone (GET /api/duplicates/{id}); the survivor and each value to keep; the clinical lists with what is on one record
// only; and the decisions: "Same person — join" (after a dialog saying what happens), "Not the same person", "Skip".
// After a join: what happened, and a link to the surviving record; or that a second reviewer must approve.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { PairDetail } from '../../../../contracts/duplicates';
import { JOIN_DETAIL_FIELDS, type JoinKeepField, type PatientJoin } from '../../../../contracts/patient-joins';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Spinner } from '../../../components/ui/spinner';
import { errorText } from '../../../lib/error-text';
import { useFocusOnMount } from '../../../lib/focus';
import { pairDetailQueryOptions, useJoinPair } from '../api/duplicates';
import { DecisionForm } from './decision-form';
import { DetailChoices, differs, PortalChoice, suggestedSurvivor, SurvivorChoice, type Keep } from './pair-choices';
import { PairLists, type DescribeRow } from './pair-lists';

const nameOf = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

/** What the join did: joined (with the way to the surviving record) or waiting for a second reviewer. */
function JoinDone({ join, canOpenRecords }: { join: PatientJoin; canOpenRecords: boolean }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const heading = useFocusOnMount<HTMLParagraphElement>();
  const name = nameOf(join.survivor);
  return (
    <div role="status" className="flex flex-col gap-2 rounded-lg border border-green-300 bg-green-50 p-4 text-green-950">
      <p id={`join-done-${join.id}`} ref={heading} tabIndex={-1} className="font-semibold outline-none">
        {join.status === 'pending' ? t('duplicates.review.pending') : t('duplicates.review.joined', { name, nc: join.survivor.idNumber })}
      </p>
      {join.status === 'joined' && canOpenRecords ? (
        <a className="font-medium text-brand-700 underline" href={`/?patient=${join.survivor.id}`}>
          {t('duplicates.review.openRecord', { name })}
        </a>
      ) : null}
    </div>
  );
}

function Review({
  pair,
  onDecided,
  describeRow,
  canOpenRecords,
}: {
  pair: PairDetail;
  onDecided: () => void;
  describeRow: DescribeRow;
  canOpenRecords: boolean;
}): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const records = pair.records;
  const [survivor, setSurvivor] = useState<0 | 1>(() => suggestedSurvivor(records).index);
  const [chosen, setChosen] = useState<Keep>({});
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<PatientJoin | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const join = useJoinPair(pair.id);
  const idOf = (i: 0 | 1) => records[i].patient.id;
  const keepOf = (field: JoinKeepField): 0 | 1 => {
    const id = chosen[field];
    return id === undefined ? survivor : id === idOf(0) ? 0 : 1;
  };
  const other: 0 | 1 = survivor === 0 ? 1 : 0;

  if (done) return <JoinDone join={done} canOpenRecords={canOpenRecords} />;

  const confirmJoin = (): void => {
    const keep: Keep = {};
    for (const field of JOIN_DETAIL_FIELDS) if (differs(records[0], records[1], field)) keep[field] = idOf(keepOf(field));
    if (records[0].portal && records[1].portal) keep.portal = idOf(keepOf('portal'));
    join.mutate(
      { decision: 'same', survivorId: idOf(survivor), keep, reason: undefined },
      {
        onSuccess: (answer) => {
          setConfirming(false);
          if (answer.join) setDone(answer.join);
        },
        onError: (e) => {
          setConfirming(false);
          setFailure(errorText(t, e, t('duplicates.review.failed')));
        },
      },
    );
  };
  const fromNc = records[other].patient.idNumber;
  return (
    <div className="flex flex-col gap-5">
      <SurvivorChoice pairId={pair.id} records={records} survivor={survivor} onChange={setSurvivor} />
      <DetailChoices pairId={pair.id} records={records} keepOf={keepOf} onKeep={(field, i) => setChosen({ ...chosen, [field]: idOf(i) })} />
      <PortalChoice pairId={pair.id} records={records} keepOf={keepOf} onKeep={(field, i) => setChosen({ ...chosen, [field]: idOf(i) })} />
      <PairLists pairId={pair.id} records={records} describeRow={describeRow} />
      <div className="flex flex-col gap-3 border-t border-slate-200 pt-4">
        {failure ? (
          <p role="alert" className="text-sm text-danger-600">
            {failure}
          </p>
        ) : null}
        <div>
          <Button
            onClick={() => {
              setFailure(null);
              setConfirming(true);
            }}
          >
            {t('duplicates.review.join')}
          </Button>
        </div>
        <DecisionForm pair={pair} onDecided={onDecided} />
      </div>
      <ConfirmDialog
        open={confirming}
        onCancel={() => setConfirming(false)}
        onConfirm={confirmJoin}
        title={t('duplicates.review.joinTitle')}
        description={
          <span className="flex flex-col gap-2">
            <span>
              {t('duplicates.review.joinWhat', {
                from: String(other + 1),
                fromNc,
                to: String(survivor + 1),
                toNc: records[survivor].patient.idNumber,
              })}
            </span>
            <span>{t('duplicates.review.joinNumber', { fromNc })}</span>
            <span>{t('duplicates.review.joinUndo')}</span>
          </span>
        }
        confirmText={t('duplicates.review.joinConfirm')}
        cancelText={t('duplicates.review.cancel')}
        pending={join.isPending}
        pendingText={t('duplicates.review.joining')}
        // Joined: the Join button is gone, and focus goes to what the join did.
        returnFocus={() => document.querySelector<HTMLElement>('[id^="join-done-"]')}
      />
    </div>
  );
}

export function PairReview({
  pairId,
  onBack,
  describeRow,
  canOpenRecords,
}: {
  pairId: number;
  onBack: () => void;
  describeRow: DescribeRow;
  /** The user may open records (records.read): the join's result links to the surviving record. */
  canOpenRecords: boolean;
}): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const detail = useQuery(pairDetailQueryOptions(pairId));
  const heading = useFocusOnMount<HTMLHeadingElement>();
  const pair = detail.data;
  const title = pair
    ? t('duplicates.review.title', { a: nameOf(pair.records[0].patient), b: nameOf(pair.records[1].patient) })
    : t('duplicates.review.loading');
  return (
    <section aria-labelledby={`pair-review-${pairId}`} className="flex flex-col gap-4">
      <div>
        <Button variant="secondary" size="sm" onClick={onBack}>
          {t('duplicates.review.back')}
        </Button>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={`pair-review-${pairId}`} ref={heading} tabIndex={-1} className="text-lg font-semibold outline-none">
          {title}
        </h2>
        {pair ? <Badge tone={pair.band === 'very-likely' ? 'red' : 'yellow'}>{t(`duplicates.band.${pair.band}`)}</Badge> : null}
        {pair ? <span className="text-sm text-slate-600">{t('duplicates.score', { score: pair.score })}</span> : null}
      </div>
      {detail.isPending ? <Spinner /> : null}
      {detail.isError ? (
        <p role="alert" className="text-danger-600">
          {errorText(t, detail.error, t('duplicates.failed'))}
        </p>
      ) : null}
      {pair ? (
        <>
          <div className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
            {pair.records.map((r, i) => (
              <p key={r.patient.id} className="rounded-md border border-slate-200 p-2">
                <span className="font-semibold">{t('duplicates.record', { n: String(i + 1) })}</span>: {nameOf(r.patient)}, NC{' '}
                {r.patient.idNumber} · {t('duplicates.review.entries', { count: String(r.clinicalRows) })} ·{' '}
                {r.portal ? t('duplicates.review.portalYes') : t('duplicates.review.portalNo')}
              </p>
            ))}
          </div>
          <Review key={pair.id} pair={pair} onDecided={onBack} describeRow={describeRow} canOpenRecords={canOpenRecords} />
        </>
      ) : null}
    </section>
  );
}
