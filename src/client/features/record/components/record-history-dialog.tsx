// One entry's history (issue 23): every version, oldest first, read when the dialog opens (GET
// /api/<kind>/{id}/history): its number, what was done (added, edited, entered in error), when (dd/MM/yyyy HH:mm
// in the device's time zone, as everywhere in the record) and by whom, the fields an edit changed (translated), the
// reason an entry was marked entered in error, and the entry as that version left it. One column, so it reads at 375 px.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import type { HistoryEntry } from '../../../../contracts/record-versions';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { formatDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { recordHistoryQueryOptions } from '../api/record-queries';
import { changedLabels } from '../kinds';
import { itemView } from './record-item';

export interface RecordHistoryDialogProps {
  kind: RecordKind;
  /** The entry whose history is open, with its title as the list shows it; null: closed. */
  entry: { id: number; title: string } | null;
  onClose: () => void;
}

export function RecordHistoryDialog({ kind, entry, onClose }: RecordHistoryDialogProps): React.JSX.Element {
  const { t } = useTranslation(['record', 'common']);
  return (
    <Dialog
      open={entry !== null}
      onOpenChange={(open) => !open && onClose()}
      title={t('history.title')}
      description={entry ? t('history.description', { name: entry.title }) : undefined}
      size="lg"
    >
      {entry ? <HistoryList kind={kind} id={entry.id} /> : null}
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={onClose}>
          {t('history.close')}
        </Button>
      </div>
    </Dialog>
  );
}

function HistoryList({ kind, id }: { kind: RecordKind; id: number }): React.JSX.Element {
  const { t } = useTranslation(['record', 'common']);
  const history = useQuery(recordHistoryQueryOptions(kind, id));
  if (history.isPending) return <p role="status">{t('history.loading')}</p>;
  if (history.isError)
    return (
      <p role="alert" className="text-danger-600">
        {errorText(t, history.error, t('history.loadFailed'))}
      </p>
    );
  return (
    <ol className="flex flex-col gap-3" aria-label={t('history.versions')}>
      {history.data.map((version) => (
        <HistoryVersion key={version.version} kind={kind} entry={version} />
      ))}
    </ol>
  );
}

function HistoryVersion({ kind, entry }: { kind: RecordKind; entry: HistoryEntry<RecordKind> }): React.JSX.Element {
  const { t } = useTranslation(['record', 'common']);
  const view = itemView(kind, entry.row as RecordRows[RecordKind], t);
  const when = entry.at ? formatDateTime(entry.at) : t('history.unknownTime');
  const reason = entry.action === 'entered-in-error' ? entry.row.enteredInErrorReason : null;
  return (
    <li className="flex flex-col gap-1 rounded-md border border-slate-200 p-3 text-sm">
      <p className="font-semibold text-slate-900">
        {t('history.version', { version: entry.version })} · {t(`history.actions.${entry.action}`)}
      </p>
      <p className="text-slate-600">{entry.by ? t('history.whenBy', { when, name: entry.by }) : when}</p>
      {entry.action === 'edited' && entry.changed.length > 0 ? (
        <p className="break-words">{t('history.changed', { fields: changedLabels(kind, entry.changed, t).join(', ') })}</p>
      ) : null}
      {entry.action === 'entered-in-error' ? (
        <p className="break-words">{t('history.reason', { reason: reason ?? t('history.noReason') })}</p>
      ) : null}
      <p className="break-words text-slate-700">
        <span className="sr-only">{t('history.entryWas')} </span>
        {view.title}
        {view.lines.length > 0 ? <span className="text-slate-500"> · {view.lines.join(' · ')}</span> : null}
      </p>
    </li>
  );
}
