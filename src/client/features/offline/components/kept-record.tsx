// A patient's record as kept on this device (issue 27 items 3-4, decision 061): each kind's list in the record's words
// (the kinds' views, via the kit), the entries made here listed apart as "waiting to be sent" (never as saved), and
// an Add form per kind that checks the entry with the kind's contract and queues it. Opening it is written to the
// device's access log (the engine). A patient registered here has only what was queued for them.
import { useEffect, useState } from 'react';
import type { TFunction } from '../../../lib/translator';
import { useTranslation } from '../../../lib/use-translation';
import type { RecordKind } from '../../../../contracts/kinds';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { toast } from '../../../components/ui/toast';
import { formatDate, formatDateTime } from '../../../lib/dates';
import type { OfflineEngine, OfflineRecord, QueuedWrite } from '../engine/offline-engine';
import type { OfflineKit, RowView } from './offline-kit';

export type PatientRef = { id: number } | { clientId: string };

function RowItem({ view }: { view: RowView }): React.JSX.Element {
  return (
    <>
      <p className="flex flex-wrap items-center gap-2 font-medium">
        {view.title}
        {view.badge ? (
          <Badge tone={view.badge.tone} aria-label={view.badge.label}>
            {view.badge.text}
          </Badge>
        ) : null}
      </p>
      {view.lines.map((line, i) => (
        <p key={i} className="text-sm text-slate-600">
          {line}
        </p>
      ))}
    </>
  );
}

/** A queued entry's body as the list would show it; the kind's name alone when the body does not read as a row. */
function queuedView(kit: OfflineKit, kind: RecordKind, body: Record<string, unknown>, t: TFunction): RowView {
  try {
    return kit.describeRow(kind, body, t);
  } catch {
    return { title: t(`record:sections.${kind}`), lines: [] };
  }
}

export function KeptRecord({
  engine,
  kit,
  patient,
  provisionalName,
  onBack,
}: {
  engine: OfflineEngine;
  kit: OfflineKit;
  patient: PatientRef;
  /** A patient registered on this device: their name (the device keeps no record of them yet). */
  provisionalName?: string;
  onBack: () => void;
}): React.JSX.Element {
  const { t } = useTranslation(['offline', 'record', 'search']);
  const [record, setRecord] = useState<OfflineRecord | null | undefined>(undefined);
  const [queued, setQueued] = useState<QueuedWrite[]>([]);
  const [adding, setAdding] = useState<RecordKind | null>(null);
  const [pending, setPending] = useState(false);
  const key = 'id' in patient ? `id:${patient.id}` : `c:${patient.clientId}`;
  useEffect(() => {
    let live = true;
    void engine.openRecord(patient).then((r) => {
      if (!live) return;
      setRecord(r);
      setQueued(r?.queued ?? []);
    });
    return () => {
      live = false;
    };
    // The record is opened once per patient (each open is logged).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [engine, key]);

  if (record === undefined) return <p role="status">{t('area.loading')}</p>;
  const name = record ? `${record.patient.lastName}, ${record.patient.firstName}` : (provisionalName ?? '');
  if (!record && provisionalName === undefined)
    return (
      <section aria-labelledby="kept-record-title" className="flex flex-col gap-3">
        <h2 id="kept-record-title" className="text-lg font-semibold">
          {t('record.notKeptTitle')}
        </h2>
        <p className="text-sm text-slate-700">{t('record.notKept')}</p>
        <div>
          <Button variant="secondary" onClick={onBack}>
            {t('record.back')}
          </Button>
        </div>
      </section>
    );

  const queue = async (kind: RecordKind, body: Record<string, unknown>): Promise<void> => {
    setPending(true);
    try {
      const write = await engine.queueEntry(patient, kind, body);
      setQueued((q) => [...q, write]);
      setAdding(null);
      toast({ title: t('record.queuedTitle'), description: t('record.queuedDescription') });
      requestAnimationFrame(() => document.getElementById('kept-waiting')?.focus());
    } catch {
      toast({ title: t('record.queueFailed'), description: t('record.queueFailedDescription'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };

  const entries = (w: QueuedWrite): { kind: RecordKind; body: Record<string, unknown> } | null =>
    w.write.type === 'entry' ? { kind: w.write.kind, body: w.write.body } : null;

  return (
    <section aria-labelledby="kept-record-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="kept-record-title" className="text-xl font-semibold">
          {name}
        </h2>
        <Button variant="secondary" onClick={onBack}>
          {t('record.back')}
        </Button>
      </div>
      {record && !record.provisionalClientId ? (
        <p className="text-sm text-slate-700">
          <span className="font-mono">{record.patient.idNumber}</span> · {t('search:dob')}: {formatDate(record.patient.dateOfBirth)}
          <span className="block">{t('record.keptNote')}</span>
        </p>
      ) : (
        <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900">{t('record.provisional')}</p>
      )}
      <section aria-labelledby="kept-waiting" className="flex flex-col gap-2 rounded-lg border border-amber-300 bg-amber-50 p-4">
        <h3 id="kept-waiting" tabIndex={-1} className="font-semibold focus:outline-none">
          {t('record.waitingTitle', { count: queued.length })}
        </h3>
        {queued.length === 0 ? (
          <p className="text-sm text-slate-700">{t('record.noneWaiting')}</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {queued.map((w) => {
              const e = entries(w);
              return (
                <li key={w.clientId} className="rounded-md bg-white p-2">
                  {e ? <RowItem view={queuedView(kit, e.kind, e.body, t)} /> : <p className="font-medium">{t('kinds.patient')}</p>}
                  <p className="mt-1 flex flex-wrap items-center gap-2 text-xs text-slate-700">
                    <Badge tone={w.state === 'needs_attention' ? 'red' : 'yellow'}>
                      {w.state === 'needs_attention' ? t('record.needsAttention') : t('record.waiting')}
                    </Badge>
                    {e ? t(`record:sections.${e.kind}`) : null} · {t('record.queuedAt', { time: formatDateTime(w.queuedAt) })}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <div className="flex flex-wrap gap-2" role="group" aria-label={t('record.addGroup')}>
        {kit.kinds.map((kind) => (
          <Button key={kind} size="sm" variant={adding === kind ? 'primary' : 'secondary'} onClick={() => setAdding(kind)}>
            {t(`record:add.${kind}`)}
          </Button>
        ))}
      </div>
      {adding ? (
        <section aria-labelledby="kept-add-title" className="rounded-lg border border-slate-200 bg-white p-4">
          <h3 id="kept-add-title" className="mb-3 font-semibold">
            {t(`record:add.${adding}`)}
          </h3>
          <p className="mb-3 text-sm text-slate-700">{t('record.addNote')}</p>
          {kit.entryForm({
            kind: adding,
            onValid: (body) => queue(adding, body),
            onCancel: () => setAdding(null),
            submitLabel: t('record.queue'),
            pending,
          })}
        </section>
      ) : null}
      {record
        ? kit.kinds.map((kind) => {
            const rows = record.lists[kind] as object[];
            return (
              <section key={kind} aria-labelledby={`kept-${kind}`} className="rounded-lg border border-slate-200 bg-white p-4">
                <h3 id={`kept-${kind}`} className="font-semibold">
                  {t(`record:sections.${kind}`)}
                </h3>
                {rows.length === 0 ? (
                  <p className="text-sm text-slate-600">{t('record.emptyKind')}</p>
                ) : (
                  <ul className="mt-2 flex flex-col divide-y divide-slate-100">
                    {rows.map((row, i) => (
                      <li key={(row as { id?: number }).id ?? i} className="py-2">
                        <RowItem view={kit.describeRow(kind, row, t)} />
                      </li>
                    ))}
                  </ul>
                )}
              </section>
            );
          })
        : null}
    </section>
  );
}
