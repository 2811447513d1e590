// The joins (issue 24 items 3-5): those waiting for a second reviewer (Approve; the reviewer who asked for one is told
// another must approve it) and the recent ones with status, who and when, and Undo (a reason, then a confirmation).
// Refusals are shown in the user's language (lib/error-text).
import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { joinUndoInput, JOIN_REASON_MAX, type PatientJoin } from '../../../../contracts/patient-joins';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Spinner } from '../../../components/ui/spinner';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { joinListQueryOptions, useApproveJoin, useUndoJoin } from '../api/patient-joins';

const RECENT = 20;
const nameOf = (p: { firstName: string; lastName: string }) => `${p.firstName} ${p.lastName}`;

function UndoDialog({ join, open, onClose }: { join: PatientJoin; open: boolean; onClose: () => void }): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'validation']);
  const [reason, setReason] = useState('');
  // Once undone, the Undo button goes: focus goes to the join's line, which now says "Undone".
  const done = useRef(false);
  const [error, setError] = useState<string | undefined>();
  const undo = useUndoJoin();
  const submit = (): void => {
    const parsed = joinUndoInput.safeParse({ reason });
    if (!parsed.success) {
      setError(t(parsed.error.issues[0]!.message));
      return;
    }
    setError(undefined);
    undo.mutate(
      { id: join.id, input: parsed.data },
      {
        onSuccess: () => {
          done.current = true;
          toast({ title: t('duplicates.joins.undone_toast') });
          setReason('');
          onClose();
        },
        onError: (e) => setError(errorText(t, e, t('duplicates.joins.failed'))),
      },
    );
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !undo.isPending && onClose()}
      title={t('duplicates.joins.undoTitle')}
      description={t('duplicates.joins.undoWhat', { survivor: nameOf(join.survivor) })}
      closeFocus={() => (done.current ? document.getElementById(`join-${join.id}`) : null)}
      returnFocus={() => document.getElementById(`join-${join.id}`)}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormField label={t('duplicates.joins.undoReason')} error={error} required>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={JOIN_REASON_MAX} rows={3} />
        </FormField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={undo.isPending}>
            {t('duplicates.review.cancel')}
          </Button>
          <Button type="submit" variant="destructive" pending={undo.isPending} pendingText={t('duplicates.joins.undoing')}>
            {t('duplicates.joins.undoConfirm')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

function JoinItem({ join, userName }: { join: PatientJoin; userName: string }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const [undoing, setUndoing] = useState(false);
  const approve = useApproveJoin();
  const someone = t('duplicates.joins.someone');
  const own = join.status === 'pending' && join.requestedBy === userName;
  const ownId = `join-${join.id}-own`;
  return (
    <li className="flex flex-col gap-1.5 rounded-lg border border-slate-200 bg-white p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span id={`join-${join.id}`} tabIndex={-1} className="font-semibold break-words outline-none">
          {t('duplicates.joins.item', {
            merged: nameOf(join.merged),
            mergedNc: join.merged.idNumber,
            survivor: nameOf(join.survivor),
            survivorNc: join.survivor.idNumber,
          })}
        </span>
        <Badge tone={join.status === 'joined' ? 'green' : join.status === 'pending' ? 'yellow' : 'gray'}>
          {t(`duplicates.joins.status.${join.status}`)}
        </Badge>
      </div>
      <span className="text-slate-700">
        {t('duplicates.joins.requested', { name: join.requestedBy ?? someone, date: formatDateTime(join.requestedAt) })}
      </span>
      {join.approvedAt ? (
        <span className="text-slate-700">
          {t('duplicates.joins.approved', { name: join.approvedBy ?? someone, date: formatDateTime(join.approvedAt) })}
        </span>
      ) : null}
      {join.joinedAt ? (
        <span className="text-slate-700">{t('duplicates.joins.joinedAt', { date: formatDateTime(join.joinedAt) })}</span>
      ) : null}
      <span className="text-slate-700">
        {t('duplicates.joins.rows', { rows: String(join.clinicalRows), moved: String(join.rowsMoved) })}
      </span>
      {join.undoneAt ? (
        <span className="text-slate-700">
          {t('duplicates.joins.undone', {
            name: join.undoneBy ?? someone,
            date: formatDateTime(join.undoneAt),
            reason: join.undoReason ?? '',
          })}
        </span>
      ) : null}
      {join.status === 'pending' ? (
        <div className="flex flex-col gap-1">
          <div>
            <Button
              size="sm"
              disabled={own}
              aria-describedby={own ? ownId : undefined}
              pending={approve.isPending}
              onClick={() =>
                // mutateAsync: the item moves from the waiting list to the recent one (remounted), and its focus
                // goes to the join's line there.
                approve
                  .mutateAsync({ id: join.id })
                  .then(() => {
                    toast({ title: t('duplicates.joins.approved_toast') });
                    requestAnimationFrame(() => document.getElementById(`join-${join.id}`)?.focus());
                  })
                  .catch((e: unknown) =>
                    toast({
                      title: t('duplicates.joins.failed'),
                      description: errorText(t, e, t('duplicates.joins.failed')),
                      variant: 'destructive',
                    }),
                  )
              }
            >
              {t('duplicates.joins.approve')}
            </Button>
          </div>
          {own ? (
            <p id={ownId} className="text-xs text-slate-600">
              {t('duplicates.joins.ownJoin')}
            </p>
          ) : null}
        </div>
      ) : null}
      {join.status !== 'undone' ? (
        <div>
          <Button size="sm" variant="secondary" onClick={() => setUndoing(true)}>
            {t('duplicates.joins.undo')}
          </Button>
        </div>
      ) : null}
      <UndoDialog join={join} open={undoing} onClose={() => setUndoing(false)} />
    </li>
  );
}

function JoinSection({
  id,
  title,
  empty,
  joins,
  userName,
}: {
  id: string;
  title: string;
  empty: string;
  joins: PatientJoin[] | undefined;
  userName: string;
}): React.JSX.Element {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-2">
      <h3 id={id} tabIndex={-1} className="font-semibold outline-none">
        {title}
      </h3>
      {joins === undefined ? <Spinner /> : null}
      {joins && joins.length === 0 ? <p className="text-sm text-slate-600">{empty}</p> : null}
      {joins && joins.length > 0 ? (
        <ul className="flex flex-col gap-2">
          {joins.map((j) => (
            <JoinItem key={j.id} join={j} userName={userName} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}

export function JoinsList({ userName }: { userName: string }): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const pending = useQuery(joinListQueryOptions('pending'));
  const all = useQuery(joinListQueryOptions());
  const failed = pending.error ?? all.error;
  return (
    <div className="flex flex-col gap-5">
      {failed ? (
        <p role="alert" className="text-danger-600">
          {errorText(t, failed, t('duplicates.joins.failed'))}
        </p>
      ) : null}
      <JoinSection
        id="joins-pending"
        title={t('duplicates.joins.pending')}
        empty={t('duplicates.joins.noPending')}
        joins={pending.data}
        userName={userName}
      />
      <JoinSection
        id="joins-recent"
        title={t('duplicates.joins.recent')}
        empty={t('duplicates.joins.noRecent')}
        joins={all.data?.filter((j) => j.status !== 'pending').slice(0, RECENT)}
        userName={userName}
      />
    </div>
  );
}
