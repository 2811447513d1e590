// A question before an action that cannot be taken back with one click (archive a report, remove a passkey): the
// action runs only from the dialog's confirm button; Cancel, Escape and a click outside change nothing.
import type { ReactNode } from 'react';
import { Button } from './button';
import { Dialog } from './dialog';

export interface ConfirmDialogProps {
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
  title: ReactNode;
  description: ReactNode;
  confirmText: string;
  cancelText: string;
  /** While the action runs: both buttons disabled, the confirm button shows `pendingText`. */
  pending?: boolean;
  pendingText?: string;
  /** Where focus goes on close when the control that opened the dialog is gone. */
  returnFocus?: () => HTMLElement | null;
}

export function ConfirmDialog({
  open,
  onCancel,
  onConfirm,
  title,
  description,
  confirmText,
  cancelText,
  pending = false,
  pendingText,
  returnFocus,
}: ConfirmDialogProps): React.JSX.Element {
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !pending && onCancel()}
      title={title}
      description={description}
      {...(returnFocus ? { returnFocus } : {})}
    >
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel} disabled={pending}>
          {cancelText}
        </Button>
        <Button variant="destructive" onClick={onConfirm} pending={pending} {...(pendingText ? { pendingText } : {})}>
          {confirmText}
        </Button>
      </div>
    </Dialog>
  );
}
