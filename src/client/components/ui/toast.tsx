// Toasts (SPEC §9): one visible at a time, 5000 ms, swipe right past 50 px to dismiss, F8 focuses the region.
// This file is the toasts' store and what every screen imports; the toast itself (Radix) is drawn by toast-view.tsx,
// loaded with the first toast (issue 21 item 18: the sign-in pages do not download it before it is needed).
import { lazy, Suspense, useEffect, useSyncExternalStore } from 'react';

export interface ToastInput {
  title: string;
  description?: string | undefined;
  variant?: 'default' | 'destructive';
}
export interface ToastState extends ToastInput {
  id: number;
}

let current: ToastState | null = null;
let nextId = 1;
const listeners = new Set<() => void>();
const emit = (): void => listeners.forEach((l) => l());

/** Shows a toast, replacing the one on screen. */
export function toast(input: ToastInput): void {
  current = { ...input, id: nextId++ };
  emit();
}
export function dismiss(id: number): void {
  if (current?.id === id) {
    current = null;
    emit();
  }
}
export const subscribe = (l: () => void): (() => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

const AFTER_RELOAD_KEY = 'nhr.toast-after-reload';

/**
 * Shows a toast on the next page load instead of this one, for an action that reloads the page (staff logout leaves
 * through a full load so nothing of the session stays in memory): the message is not lost with the page.
 */
export function toastAfterReload(input: ToastInput): void {
  try {
    sessionStorage.setItem(AFTER_RELOAD_KEY, JSON.stringify(input));
  } catch {
    // Storage switched off: the page that loads next cannot show it; nothing else to do.
  }
}

function takeToastAfterReload(): void {
  try {
    const stored = sessionStorage.getItem(AFTER_RELOAD_KEY);
    if (stored === null) return;
    sessionStorage.removeItem(AFTER_RELOAD_KEY);
    const input = JSON.parse(stored) as Partial<ToastInput>;
    if (typeof input.title === 'string') toast({ title: input.title, description: input.description, variant: input.variant });
  } catch {
    // Storage switched off or an unreadable entry: no toast.
  }
}

/** The toast on screen, or null. */
export const useCurrentToast = (): ToastState | null => useSyncExternalStore(subscribe, () => current);

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
