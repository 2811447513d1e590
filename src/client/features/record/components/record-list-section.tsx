// One list of the record (SPEC §2; issue 23): every entry has a History action; in edit mode the card also has its
// 'Add ...' dialog, and each entry an Edit action (the same form, filled from the entry) and "Entered in error" (with
// a reason) instead of a delete. Changes update the list and show the SPEC §8 toasts. The form's code (its fields and
// the type-ahead) loads only when edit mode is chosen, not with the record.
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Ban, History, Pencil, Plus } from 'lucide-react';
import type { RecordKind, RecordRows } from '../../../../contracts/kinds';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { errorText } from '../../../lib/error-text';
import { useRecordList } from '../api/record-queries';
import { EnteredInErrorDialog } from './entered-in-error-dialog';
import { RecordHistoryDialog } from './record-history-dialog';
import { ItemBody, itemView } from './record-item';
import { MedicineFindings } from './medicine-findings';

const loadFormDialog = () => import('./record-form-dialog');
const RecordFormDialog = lazy(() => loadFormDialog().then((m) => ({ default: m.RecordFormDialog })));

export interface RecordListSectionProps {
  kind: RecordKind;
  patientId: number;
  editing: boolean;
  /** The one add dialog open in the record (SPEC §4), controlled by the record screen. */
  addOpen: boolean;
  onAddOpenChange: (open: boolean) => void;
}

type Entry = { id: number; title: string };

export function RecordListSection({ kind, patientId, editing, addOpen, onAddOpenChange }: RecordListSectionProps): React.JSX.Element {
  const { t } = useTranslation(['record', 'common']);
  const list = useRecordList(kind, patientId);
  const [editingRow, setEditingRow] = useState<RecordRows[RecordKind] | null>(null);
  const [marking, setMarking] = useState<Entry | null>(null);
  const [historyOf, setHistoryOf] = useState<Entry | null>(null);
  // The add dialog stays mounted once opened (a cancelled form keeps what was typed, as before it loaded lazily).
  const [addLoaded, setAddLoaded] = useState(false);
  const title = t(`sections.${kind}`);
  const heading = (): HTMLElement | null => document.getElementById(editing ? `record-${kind}-title` : `record-${kind}`);

  useEffect(() => {
    if (editing) void loadFormDialog(); // ready before the first Add or Edit
  }, [editing]);
  useEffect(() => {
    if (addOpen) setAddLoaded(true);
  }, [addOpen]);

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
          const entry = { id: row.id, title: view.title };
          return (
            <li key={row.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:gap-3">
              <div className="flex min-w-0 flex-1 flex-col gap-1">
                <ItemBody view={view} />
                {kind === 'medications' ? <MedicineFindings patientId={patientId} medicationId={row.id} /> : null}
              </div>
              <div className="-ml-2 flex flex-wrap gap-1 sm:ml-0 sm:shrink-0">
                {editing ? (
                  <ItemAction
                    icon={Pencil}
                    text={t('actions.edit')}
                    label={t('actions.editLabel', { name: view.title })}
                    onClick={() => setEditingRow(row)}
                  />
                ) : null}
                <ItemAction
                  icon={History}
                  text={t('actions.history')}
                  label={t('actions.historyLabel', { name: view.title })}
                  onClick={() => setHistoryOf(entry)}
                />
                {editing ? (
                  <ItemAction
                    icon={Ban}
                    danger
                    text={t('actions.enteredInError')}
                    label={t('actions.enteredInErrorLabel', { name: view.title })}
                    onClick={() => setMarking(entry)}
                  />
                ) : null}
              </div>
            </li>
          );
        })}
      </ul>
    );
  }

  const dialogs = (
    <>
      <RecordHistoryDialog kind={kind} entry={historyOf} onClose={() => setHistoryOf(null)} />
      {editing ? (
        <>
          <EnteredInErrorDialog kind={kind} patientId={patientId} entry={marking} onClose={() => setMarking(null)} returnFocus={heading} />
          <Suspense fallback={null}>
            {addLoaded ? <RecordFormDialog kind={kind} patientId={patientId} open={addOpen} onOpenChange={onAddOpenChange} /> : null}
            {editingRow ? (
              <RecordFormDialog
                key={editingRow.id}
                kind={kind}
                patientId={patientId}
                row={editingRow}
                open
                onOpenChange={(open) => !open && setEditingRow(null)}
              />
            ) : null}
          </Suspense>
        </>
      ) : null}
    </>
  );

  if (!editing) {
    return (
      <section aria-labelledby={`record-${kind}`} className="flex flex-col gap-3">
        <h2 id={`record-${kind}`} tabIndex={-1} className="text-xl font-semibold focus:outline-none">
          {title}
        </h2>
        <Card>
          <CardContent className="pt-5">{body}</CardContent>
        </Card>
        {dialogs}
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
      {dialogs}
    </Card>
  );
}

/** One action on an entry: an icon and a short word on screen; the entry's name added for screen readers. */
function ItemAction({
  icon: Icon,
  text,
  label,
  danger = false,
  onClick,
}: {
  icon: typeof Pencil;
  text: string;
  label: string;
  danger?: boolean;
  onClick: () => void;
}): React.JSX.Element {
  return (
    <Button variant="ghost" size="sm" className={danger ? 'px-2 text-danger-600' : 'px-2'} aria-label={label} onClick={onClick}>
      <Icon aria-hidden="true" className="h-4 w-4" />
      {text}
    </Button>
  );
}
