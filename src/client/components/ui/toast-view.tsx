// The toast on screen, drawn with Radix Toast (loaded with the first toast by components/ui/toast.tsx).
import { Toast as RadixToast } from 'radix-ui';
import { cn } from '../../lib/cn';
import { dismiss, type ToastState } from './toast-store';

export function ToastView({
  toast: t,
  regionLabel,
  viewportLabel,
}: {
  toast: ToastState;
  regionLabel: string;
  viewportLabel: string;
}): React.JSX.Element {
  return (
    <RadixToast.Provider duration={5000} swipeDirection="right" swipeThreshold={50} label={regionLabel}>
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
      <RadixToast.Viewport
        label={viewportLabel}
        // On a phone at the top: at the bottom it covered the buttons of a dialog (issue 21 item 17).
        className="fixed right-4 top-4 z-[100] flex w-[calc(100vw-2rem)] max-w-sm flex-col gap-2 outline-none sm:bottom-4 sm:top-auto"
      />
    </RadixToast.Provider>
  );
}
