// The changes the server refused (issue 27 item 6): each one with why (its error code, translated), to try again or
// to discard with a reason (the server audits the discard). Opened from the status bar.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Label } from '../../../components/ui/label';
import { Textarea } from '../../../components/ui/textarea';
import type { QueuedWrite } from '../engine/offline-engine';
import { loadOfflineEngine } from '../load-engine';

const formatTime = (iso: string): string => new Date(iso).toLocaleString([], { dateStyle: 'short', timeStyle: 'short' });

function AttentionItem({ write }: { write: QueuedWrite }): React.JSX.Element {
  const { t } = useTranslation(['offline', 'common']);
  const [discarding, setDiscarding] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const what = t(`engine.writes.${write.write.type === 'patient' ? 'patient' : write.write.kind}`);
  const why = write.code ? t(`common:errors.${write.code}`, { defaultValue: t('engine.unknownCode') }) : t('engine.unknownCode');
  const run = async (action: () => Promise<void>): Promise<void> => {
    setBusy(true);
    setFailed(false);
    try {
      await action();
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  const reasonId = `discard-reason-${write.clientId}`;
  return (
    <li className="flex flex-col gap-2 rounded-md border border-slate-200 p-3">
      <p className="font-medium text-slate-900">{t('status.entry', { what, patient: write.patientLabel })}</p>
      <p className="text-sm text-slate-700">{why}</p>
      <p className="text-xs text-slate-500">{t('status.queuedAt', { time: formatTime(write.queuedAt) })}</p>
      {failed ? (
        <p role="alert" className="text-sm text-danger-600">
          {t('status.failed')}
        </p>
      ) : null}
      {discarding ? (
        <form
          className="flex flex-col gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (reason.trim()) void run(async () => (await loadOfflineEngine()).discard(write.clientId, reason.trim()));
          }}
        >
          <Label htmlFor={reasonId}>{t('status.discardReason')}</Label>
          <Textarea id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} required maxLength={500} />
          <div className="flex flex-wrap gap-2">
            <Button type="submit" variant="destructive" size="sm" disabled={busy || !reason.trim()}>
              {t('status.discardConfirm')}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => setDiscarding(false)} disabled={busy}>
              {t('status.cancel')}
            </Button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={() => void run(async () => (await loadOfflineEngine()).retry(write.clientId))} disabled={busy}>
            {t('status.retry')}
          </Button>
          <Button size="sm" variant="secondary" onClick={() => setDiscarding(true)} disabled={busy}>
            {t('status.discard')}
          </Button>
        </div>
      )}
    </li>
  );
}

export function AttentionList({
  open,
  onOpenChange,
  writes,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  writes: QueuedWrite[];
}): React.JSX.Element {
  const { t } = useTranslation('offline');
  return (
    <Dialog
      open={open && writes.length > 0}
      onOpenChange={onOpenChange}
      title={t('status.listTitle')}
      description={t('status.listDescription')}
    >
      <ul className="flex flex-col gap-3">
        {writes.map((w) => (
          <AttentionItem key={w.clientId} write={w} />
        ))}
      </ul>
      <div className="mt-4 flex justify-end">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          {t('status.close')}
        </Button>
      </div>
    </Dialog>
  );
}
