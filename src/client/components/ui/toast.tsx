// Toasts (SPEC §9): one visible at a time, 5000 ms, swipe right past 50 px to dismiss, F8 focuses the region.
// Screens import `toast` from here; the toast itself (Radix) is drawn by toast-view.tsx, loaded with the first toast
// (issue 21 item 18: the sign-in pages do not download it before it is needed).
import { lazy, Suspense, useEffect } from 'react';
import { takeToastAfterReload, useCurrentToast } from './toast-store';

export { toast, toastAfterReload, type ToastInput } from './toast-store';

const ToastView = lazy(() => import('./toast-view').then((m) => ({ default: m.ToastView })));

/** regionLabel names each toast's region for screen readers; viewportLabel names the list, with {hotkey} for F8. */
export function Toaster({ regionLabel, viewportLabel }: { regionLabel: string; viewportLabel: string }): React.JSX.Element | null {
  const t = useCurrentToast();
  useEffect(takeToastAfterReload, []);
  if (!t) return null;
  return (
    <Suspense fallback={null}>
      <ToastView toast={t} regionLabel={regionLabel} viewportLabel={viewportLabel} />
    </Suspense>
  );
}
