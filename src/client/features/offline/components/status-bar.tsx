// The offline status bar (issue 27 item 6, decision 061): on every screen of a device with offline mode switched on,
// an honest line: "Online", "Offline · 7 changes waiting · last synced 09:12", "Syncing 3 of 7", and "1 change needs
// attention" as a button opening the refused changes (changes-needing-attention.tsx), each retried or discarded with a
// reason. A live region, so a screen reader hears each change of state; at 375 px it wraps rather than overflows.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import type { OfflineStatus } from '../engine/offline-engine';
import { loadedOfflineEngine } from '../load-engine';
import { useOfflineStatus } from '../use-offline-status';
import { ChangesNeedingAttention } from './changes-needing-attention';

export const formatTime = (iso: string): string => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The line's parts, in the reader's language. */
function statusParts(status: OfflineStatus, t: (key: string, options?: Record<string, unknown>) => string): string[] {
  if (!status.enabled) return status.wipedBecause ? [t(`status.wiped.${status.wipedBecause}`)] : [];
  if (status.syncing) return [t('status.syncing', { done: status.syncing.done, total: status.syncing.total })];
  const parts = [status.online ? t('status.online') : t('status.offline')];
  const waiting = status.waiting - status.attention.length;
  if (waiting > 0) parts.push(t('status.waiting', { count: waiting }));
  if (!status.online || waiting > 0)
    parts.push(status.lastSyncedAt ? t('status.lastSynced', { time: formatTime(status.lastSyncedAt) }) : t('status.neverSynced'));
  if (!status.unlocked) parts.push(t('status.locked'));
  return parts;
}

export function OfflineStatusBar(): React.JSX.Element | null {
  const { t } = useTranslation('offline');
  const status = useOfflineStatus();
  const [listOpen, setListOpen] = useState(false);
  const parts = statusParts(status, t);
  const attention = status.attention.length;
  const engine = loadedOfflineEngine();
  if (parts.length === 0) return null;
  const tone =
    attention > 0 ? 'border-amber-300 bg-amber-50' : status.online ? 'border-slate-200 bg-white' : 'border-slate-300 bg-slate-100';
  return (
    <>
      {/* Room at the end of the page, so the bar never covers its last line. */}
      <div aria-hidden="true" className="h-12" />
      <section
        aria-label={t('status.region')}
        className={`fixed inset-x-0 bottom-0 z-30 border-t px-3 py-2 text-sm text-slate-800 ${tone}`}
      >
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-1">
          <span
            aria-hidden="true"
            className={`inline-block h-2.5 w-2.5 shrink-0 rounded-full ${status.online ? 'bg-emerald-600' : 'bg-slate-500'}`}
          />
          <p role="status" aria-live="polite" className="min-w-0 flex-1" data-testid="offline-status">
            {parts.join(' · ')}
            {attention > 0 ? <span className="sr-only"> · {t('status.attention', { count: attention })}</span> : null}
          </p>
          {attention > 0 ? (
            <Button size="sm" variant="secondary" onClick={() => setListOpen(true)} aria-haspopup="dialog">
              {t('status.attention', { count: attention })}
            </Button>
          ) : null}
        </div>
      </section>
      {engine ? (
        <Dialog open={listOpen && attention > 0} onOpenChange={setListOpen} title={t('status.attention', { count: attention })} size="lg">
          <ChangesNeedingAttention engine={engine} />
        </Dialog>
      ) : null}
    </>
  );
}
