// Toasts (SPEC §9): one visible at a time, 5000 ms, swipe right past 50 px to dismiss, F8 focuses the region.
import { useEffect, useSyncExternalStore } from 'react';
import { Toast as RadixToast } from 'radix-ui';
import { cn } from '../../lib/cn';

export interface ToastInput {
  title: string;
  description?: string | undefined;
  variant?: 'default' | 'destructive';
}
interface ToastState extends ToastInput {
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
function dismiss(id: number): void {
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

/** regionLabel names each toast's region for screen readers; viewportLabel names the list, with {hotkey} for F8. */
export function Toaster({ regionLabel, viewportLabel }: { regionLabel: string; viewportLabel: string }): React.JSX.Element {
  const t = useSyncExternalStore(subscribe, () => current);
  useEffect(takeToastAfterReload, []);
  return (
    <RadixToast.Provider duration={5000} swipeDirection="right" swipeThreshold={50} label={regionLabel}>
      {t ? (
        <RadixToast.Root
          key={t.id}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(open) => !open && dismiss(t.id)}
          className={cn(
            'rounded-lg border p-4 shadow-lg data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)]',
            t.variant === 'destructive' ? 'border-red-700 bg-danger-600 text-white' : 'border-slate-200 bg-white text-slate-900',
          )}
        >
          <RadixToast.Title className="text-sm font-semibold">{t.title}</RadixToast.Title>
          {t.description ? <RadixToast.Description className="mt-1 text-sm opacity-90">{t.description}</RadixToast.Description> : null}
        </RadixToast.Root>
      ) : null}
      <RadixToast.Viewport
        label={viewportLabel}
        // On a phone at the top: at the bottom it covered the buttons of a dialog (issue 21 item 17).
        className="fixed right-4 top-4 z-[100] flex w-[calc(100vw-2rem)] max-w-sm flex-col gap-2 outline-none sm:bottom-4 sm:top-auto"
      />
    </RadixToast.Provider>
  );
}
