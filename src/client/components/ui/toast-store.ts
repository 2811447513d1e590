// The toasts' store (SPEC §9: one visible at a time): what a screen calls to show one, and what the toaster
// (toast.tsx) and the toast's view (toast-view.tsx) read.
import { useSyncExternalStore } from 'react';

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
const subscribe = (l: () => void): (() => void) => {
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

/** Shows the toast a page load before this one left for it (toastAfterReload), once. */
export function takeToastAfterReload(): void {
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
