// Signing out never silently loses offline changes (issue 27 "nothing is lost", decision 061). On a device with
// offline mode, sign-out first tries a last sync; when changes still wait or need attention, nothing is wiped and the
// session stays: a dialog says how many changes have not reached the server, with "Stay signed in" (focused) and
// "Sign out and delete N unsent changes" (each discarded through the engine where the server answers, audited;
// otherwise deleted with the store). With nothing waiting the sign-out goes ahead at once. app/ composes it with the
// sign-out (features do not import each other); its translations load only on a device switched on.
import { useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { canTakeFocus } from '../../../lib/focus';
import { loadNamespaces } from '../../../lib/i18n';
import { hasOfflineDevice } from '../device-flag';
import { discardUnsentAtSignOut, unsentAtSignOut } from '../sign-out';

function UnsentChangesDialog({
  unsent,
  onStay,
  onDelete,
  pending,
  closeFocus,
}: {
  /** How many changes have not reached the server; null while closed. */
  unsent: number | null;
  onStay: () => void;
  onDelete: (reason: string) => void;
  pending: boolean;
  closeFocus: () => HTMLElement | null;
}): React.JSX.Element {
  const { t } = useTranslation('offline');
  const count = unsent ?? 0;
  // "Stay signed in" comes first: the dialog focuses it on opening, so Enter keeps everything.
  return (
    <Dialog
      open={unsent !== null}
      onOpenChange={(open) => !open && !pending && onStay()}
      title={t('signOut.title')}
      description={t('signOut.description', { count })}
      closeFocus={closeFocus}
    >
      <p className="text-sm text-slate-700">{t('signOut.advice', { count })}</p>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onStay} disabled={pending}>
          {t('signOut.stay')}
        </Button>
        <Button
          variant="destructive"
          onClick={() => onDelete(t('signOut.discardReason'))}
          pending={pending}
          pendingText={t('signOut.deleting')}
        >
          {t('signOut.delete', { count })}
        </Button>
      </div>
    </Dialog>
  );
}

export interface OfflineSignOutGuard {
  /** Asked for by the Log out controls: signs out now, or opens the dialog when changes would be lost. */
  request: () => void;
  /** The last sync before signing out runs (a second request meanwhile is ignored). */
  checking: boolean;
  /** The dialog, to be rendered next to the controls. */
  dialog: React.ReactNode;
}

/**
 * Wraps `signOut` (which wipes the store: useLogout with wipeOfflineAtSignOut) with the check and the dialog.
 * `returnFocus`: where focus goes when the dialog closes and the control that asked is gone (a menu's item).
 */
export function useOfflineSignOutGuard(signOut: () => void, returnFocus: () => HTMLElement | null): OfflineSignOutGuard {
  const [checking, setChecking] = useState(false);
  const [unsent, setUnsent] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  // The dialog stays mounted once shown, so that closing it returns focus; its namespace is loaded by then.
  const [shown, setShown] = useState(false);
  /** The control the sign-out was asked from (focus goes back there when it is still in the page). */
  const askedFrom = useRef<Element | null>(null);
  const closeFocus = (): HTMLElement | null =>
    [askedFrom.current, returnFocus()].find((el): el is HTMLElement => el !== document.body && canTakeFocus(el)) ?? null;

  const request = (): void => {
    if (!hasOfflineDevice()) return signOut();
    if (checking || deleting) return; // the button keeps focus while the check runs (the dialog returns it there)
    askedFrom.current = document.activeElement;
    setChecking(true);
    void Promise.all([unsentAtSignOut(), loadNamespaces('offline')])
      .then(([n]) => {
        if (n === 0) return signOut();
        setShown(true);
        setUnsent(n);
      })
      .catch((e: unknown) => {
        // The engine did not load: the wipe cannot run either (the store stays); the sign-out goes ahead.
        console.warn('offline: before sign-out', e);
        signOut();
      })
      .finally(() => setChecking(false));
  };

  const deleteAndSignOut = (reason: string): void => {
    setDeleting(true);
    void discardUnsentAtSignOut(reason)
      .catch((e: unknown) => console.warn('offline: discarding at sign-out', e))
      .then(() => signOut());
  };

  const dialog = shown ? (
    <UnsentChangesDialog
      unsent={unsent}
      pending={deleting}
      onStay={() => setUnsent(null)}
      onDelete={deleteAndSignOut}
      closeFocus={closeFocus}
    />
  ) : null;
  return { request, checking, dialog };
}
