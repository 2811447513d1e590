// One list of the record (SPEC §2): read-only in view mode; in edit mode a card with its 'Add ...' dialog and a
// delete button (with confirmation) per entry. Adds and deletes refresh the list and show the SPEC §8 toasts.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Plus, Trash2 } from 'lucide-react';
import type { RecordKind } from '../../../../contracts/kinds';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { useDeleteRecordItem } from '../api/record-mutations';
import { useRecordList } from '../api/record-queries';
import { AddRecordDialog } from './add-record-dialog';
import { ItemBody, itemView } from './record-item';

export interface RecordListSectionProps {
  kind: RecordKind;
  patientId: number;
  editing: boolean;
  /** The one add dialog open in the record (SPEC §4), controlled by the record screen. */
  addOpen: boolean;
  onAddOpenChange: (open: boolean) => void;
}

export function RecordListSection({ kind, patientId, editing, addOpen, onAddOpenChange }: RecordListSectionProps): React.JSX.Element {
  const { t } = useTranslation(['record', 'common']);
  const list = useRecordList(kind, patientId);
  const remove = useDeleteRecordItem(kind, patientId);
  const [confirming, setConfirming] = useState<{ id: number; title: string } | null>(null);
  const title = t(`sections.${kind}`);

  const confirmDelete = (): void => {
    if (!confirming) return;
    remove.mutate(confirming.id, {
      onSuccess: () => toast({ title: t(`toast.deleted.${kind}`) }),
      onError: (error) =>
        toast({ title: t(`toast.deleteFailed.${kind}`), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
      onSettled: () => setConfirming(null),
    });
  };

  let body: React.JSX.Element;
  if (list.isPending) body = <p role="status">{t('loading')}</p>;
  else if (list.isError)
    body = (
      <p role="alert" className="text-danger-600">
        {errorText(t, list.error, t('errors.loadFailed'))}
      </p>
    );
  else if (list.data.length === 0) body = <p className="text-slate-600">{t(`empty.${kind}`)}</p>;
  else {
    body = (
      <ul className="divide-y divide-slate-200" aria-label={title}>
        {list.data.map((row) => {
          const view = itemView(kind, row, t);
          return (
            <li key={row.id} className="flex items-start gap-3 py-3">
              <ItemBody view={view} />
              {editing ? (
                <Button
                  variant="ghost"
                  size="icon"
                  aria-label={t('delete.label', { name: view.title })}
                  onClick={() => setConfirming({ id: row.id, title: view.title })}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4 text-danger-600" />
                </Button>
              ) : null}
            </li>
          );
        })}
      </ul>
    );
  }

  if (!editing) {
    return (
      <section aria-labelledby={`record-${kind}`} className="flex flex-col gap-3">
        <h2 id={`record-${kind}`} className="text-xl font-semibold">
          {title}
        </h2>
        <Card>
          <CardContent className="pt-5">{body}</CardContent>
        </Card>
      </section>
    );
  }

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle id={`record-${kind}-title`} tabIndex={-1} className="focus:outline-none">
          {title}
        </CardTitle>
        <Button onClick={() => onAddOpenChange(true)}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          {t(`add.${kind}`)}
        </Button>
      </CardHeader>
      <CardContent>{body}</CardContent>
      <AddRecordDialog kind={kind} patientId={patientId} open={addOpen} onOpenChange={onAddOpenChange} />
      <Dialog
        open={confirming !== null}
        onOpenChange={(open) => !open && !remove.isPending && setConfirming(null)}
        title={t('delete.title')}
        description={t('delete.description', { name: confirming?.title ?? '' })}
        returnFocus={() => document.getElementById(`record-${kind}-title`)}
      >
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setConfirming(null)} disabled={remove.isPending}>
            {t('form.cancel')}
          </Button>
          <Button variant="destructive" onClick={confirmDelete} disabled={remove.isPending}>
            {remove.isPending ? t('delete.deleting') : t('delete.button')}
          </Button>
        </div>
      </Dialog>
    </Card>
  );
}
