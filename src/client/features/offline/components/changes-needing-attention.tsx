// The changes that need attention (issue 27 item 6, decision 061): each write the server refused, with its translated
// error code, Retry, and Discard (asks for a reason; the engine reports the discard to the server, where it is
// audited). The status bar (engine) opens it; nothing here is ever shown as saved.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { discardInput } from '../../../../contracts/offline';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { FormField } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/dates';
import type { OfflineEngine, QueuedWrite } from '../engine/offline-engine';
import { useEngineStatus } from './engine-context';
import { engineErrorText } from './engine-errors';

/** What a queued write adds, in the user's words ("Allergy", "New patient"). */
export function writeKindText(t: (key: string) => string, write: QueuedWrite['write']): string {
  return write.type === 'patient' ? t('offline:kinds.patient') : t(`offline:kinds.${write.kind}`);
}

function DiscardDialog({
  write,
  onClose,
  engine,
}: {
  write: QueuedWrite | null;
  onClose: () => void;
  engine: OfflineEngine;
}): React.JSX.Element {
  const { t } = useTranslation(['offline', 'validation', 'common']);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [pending, setPending] = useState(false);
  const { refusal, refuse } = useRefusal();
  const close = (): void => {
    setReason('');
    setError(undefined);
    onClose();
  };
  const discard = async (): Promise<void> => {
    if (!write) return;
    const parsed = discardInput.safeParse({ clientId: write.clientId, reason });
    const issue = parsed.success ? null : parsed.error.issues.find((i) => i.path[0] === 'reason');
    setError(issue ? t(issue.message) : undefined);
    if (!parsed.success) return;
    setPending(true);
    try {
      await engine.discard(write.clientId, parsed.data.reason);
      toast({ title: t('attention.discarded') });
      close();
    } catch (e) {
      refuse(t('attention.discardFailed'), engineErrorText(t, e, t('attention.discardOffline')));
    } finally {
      setPending(false);
    }
  };
  return (
    <Dialog
      open={write !== null}
      onOpenChange={(open) => !open && !pending && close()}
      title={t('attention.discardTitle')}
      description={write ? `${writeKindText(t, write.write)} · ${write.patientLabel}` : undefined}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void discard();
        }}
      >
        <FormAlert refusal={refusal} />
        <p className="text-sm text-slate-700">{t('attention.discardWarning')}</p>
        <FormField label={t('attention.reason')} error={error} required>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} rows={3} />
        </FormField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={pending}>
            {t('attention.cancel')}
          </Button>
          <Button type="submit" variant="destructive" pending={pending} pendingText={t('attention.discarding')}>
            {t('attention.discard')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** The list itself: for the status bar's panel and the offline area (named apart from the status bar's own dialog). */
export function ChangesNeedingAttention({ engine }: { engine: OfflineEngine }): React.JSX.Element {
  const { t } = useTranslation(['offline', 'common']);
  const status = useEngineStatus(engine);
  const [discarding, setDiscarding] = useState<QueuedWrite | null>(null);
  const [retrying, setRetrying] = useState<string | null>(null);
  const retry = async (write: QueuedWrite): Promise<void> => {
    setRetrying(write.clientId);
    try {
      await engine.retry(write.clientId);
    } catch (e) {
      toast({ title: t('attention.retryFailed'), description: engineErrorText(t, e, t('attention.retryOffline')), variant: 'destructive' });
    } finally {
      setRetrying(null);
    }
  };
  return (
    <section aria-labelledby="attention-title" className="flex flex-col gap-3">
      <h2 id="attention-title" className="text-lg font-semibold">
        {t('attention.title')}
      </h2>
      {status.attention.length === 0 ? (
        <p className="text-sm text-slate-600">{t('attention.none')}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">{t('attention.intro', { count: status.attention.length })}</p>
          <ul className="flex flex-col gap-2">
            {status.attention.map((w) => {
              const what = `${writeKindText(t, w.write)} · ${w.patientLabel}`;
              return (
                <li key={w.clientId} className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 p-3">
                  <p className="font-medium">{what}</p>
                  <p className="text-xs text-slate-600">{t('attention.queuedAt', { time: formatDateTime(w.queuedAt) })}</p>
                  <p className="text-sm text-red-900">
                    {w.code
                      ? t(`common:errors.${w.code}`, { defaultValue: t('attention.unknownCode', { code: w.code }) })
                      : t('attention.noCode')}
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      onClick={() => void retry(w)}
                      pending={retrying === w.clientId}
                      pendingText={t('attention.retrying')}
                      aria-label={t('attention.retryLabel', { what })}
                    >
                      {t('attention.retry')}
                    </Button>
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() => setDiscarding(w)}
                      aria-label={t('attention.discardLabel', { what })}
                    >
                      {t('attention.discard')}
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <DiscardDialog write={discarding} onClose={() => setDiscarding(null)} engine={engine} />
    </section>
  );
}
