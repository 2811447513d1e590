// Signing out never silently loses offline changes (issue 27 "nothing is lost", decision 061). On a device with
// offline mode, sign-out first tries a last sync; when changes still wait or need attention, nothing is wiped and the
// session stays: a dialog says how many changes have not reached the server, with "Stay signed in" (focused) and
// "Sign out and delete N unsent changes" (each discarded through the engine where the server answers, audited;
// otherwise deleted with the store). With nothing waiting the sign-out goes ahead at once. app/ composes it with the
// sign-out (features do not import each other); its translations load only on a device switched on.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { loadNamespaces } from '../../../lib/i18n';
import { hasOfflineDevice } from '../device-flag';
import { discardUnsentAtSignOut, unsentAtSignOut } from '../sign-out';

function UnsentChangesDialog({
  unsent,
  onStay,
  onDelete,
  pending,
}: {
  /** How many changes have not reached the server; null while closed. */
  unsent: number | null;
  onStay: () => void;
  onDelete: (reason: string) => void;
  pending: boolean;
}): React.JSX.Element {
  const { t } = useTranslation('offline');
  const count = unsent ?? 0;
  return (
    <ConfirmDialog
      open={unsent !== null}
      onCancel={onStay}
      onConfirm={() => onDelete(t('signOut.discardReason'))}
      title={t('signOut.title')}
      description={
        <>
          {t('signOut.description', { count })} {t('signOut.advice')}
        </>
      }
      cancelText={t('signOut.stay')}
      confirmText={t('signOut.delete', { count })}
      pending={pending}
      pendingText={t('signOut.deleting')}
    />
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

/** Wraps `signOut` (which wipes the store: useLogout with wipeOfflineAtSignOut) with the check and the dialog. */
export function useOfflineSignOutGuard(signOut: () => void): OfflineSignOutGuard {
  const [checking, setChecking] = useState(false);
  const [unsent, setUnsent] = useState<number | null>(null);
  const [deleting, setDeleting] = useState(false);
  // The dialog stays mounted once shown, so that closing it returns focus; its namespace is loaded by then.
  const [shown, setShown] = useState(false);

  const request = (): void => {
    if (!hasOfflineDevice()) return signOut();
    if (checking || deleting) return; // the button keeps focus while the check runs (the dialog returns it there)
    setChecking(true);
    void Promise.all([unsentAtSignOut(), loadNamespaces('offline')])
      .then(([n]) => {
        if (n === 0) return signOut();
        setShown(true);
        setUnsent(n);
      })
      .catch((e: unknown) => {
        // The engine did not load: nothing can be wiped either (the wipe refuses too); the sign-out goes ahead.
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
    <UnsentChangesDialog unsent={unsent} pending={deleting} onStay={() => setUnsent(null)} onDelete={deleteAndSignOut} />
  ) : null;
  return { request, checking, dialog };
}
