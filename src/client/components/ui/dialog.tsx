import { useRef, type ReactNode } from 'react';
import { Dialog as RadixDialog } from 'radix-ui';
import { cn } from '../../lib/cn';
import { canTakeFocus, mainHeading } from '../../lib/focus';

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** SPEC §9: add dialogs have medium max width. */
  size?: 'md' | 'lg';
  /** Where focus goes on close when the control that opened the dialog is gone (e.g. a deleted row's button). */
  returnFocus?: () => HTMLElement | null;
  /** Where focus goes on close before anything else, when it answers an element (e.g. what the dialog's action showed). */
  closeFocus?: () => HTMLElement | null;
}

/** WAI-ARIA combobox: Escape in a combobox whose list is open closes the list (code-typeahead.tsx), not the dialog. */
function escapeBelongsToCombobox(): boolean {
  const focused = document.activeElement;
  return focused instanceof HTMLElement && focused.getAttribute('role') === 'combobox' && focused.getAttribute('aria-expanded') === 'true';
}

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  size = 'md',
  returnFocus,
  closeFocus,
}: DialogProps): React.JSX.Element {
  // The element focused when the dialog opened: focus goes back there on close (Save, Cancel, Escape).
  const opener = useRef<Element | null>(null);
  return (
    <RadixDialog.Root open={open} onOpenChange={onOpenChange}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <RadixDialog.Content
          className={cn(
            'fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100vw-2rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg bg-white p-6 shadow-xl',
            size === 'md' ? 'max-w-md' : 'max-w-2xl',
          )}
          onEscapeKeyDown={(e) => {
            if (escapeBelongsToCombobox()) e.preventDefault();
          }}
          onOpenAutoFocus={() => {
            opener.current = document.activeElement;
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            // After the closing render: the opener may be re-enabled, or its row removed.
            requestAnimationFrame(() => {
              const target = [closeFocus?.(), opener.current, returnFocus?.(), mainHeading()].find(canTakeFocus);
              target?.focus();
            });
          }}
          {...(description ? {} : { 'aria-describedby': undefined })}
        >
          <RadixDialog.Title className="text-lg font-semibold text-slate-900">{title}</RadixDialog.Title>
          {description ? <RadixDialog.Description className="mt-1 text-sm text-slate-600">{description}</RadixDialog.Description> : null}
          <div className="mt-4">{children}</div>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}
