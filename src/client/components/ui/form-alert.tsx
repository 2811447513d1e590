// The one rule for a refused step (issue 21 item 16): the form shows why, in a summary at its top, and that summary
// takes keyboard focus, so a screen reader reads it and the next Tab continues in the form. The toast SPEC asks for
// is shown as well. Every refusal focuses it again, even with the same text (a second wrong PIN).
import { useCallback, useEffect, useRef, useState } from 'react';
import { toast } from './toast';

export interface Refusal {
  title: string;
  description?: string | undefined;
  /** Changes with every refusal, so the same text twice is focused twice. */
  seq: number;
}

/** The form's refusal, `refuse` (summary and toast) and `clear` (when the user starts over). */
export function useRefusal(): { refusal: Refusal | null; refuse: (title: string, description?: string) => void; clear: () => void } {
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const refuse = useCallback((title: string, description?: string): void => {
    toast({ title, description, variant: 'destructive' });
    setRefusal((r) => ({ title, description, seq: (r?.seq ?? 0) + 1 }));
  }, []);
  const clear = useCallback(() => setRefusal(null), []);
  return { refusal, refuse, clear };
}

export function FormAlert({ refusal }: { refusal: Refusal | null }): React.JSX.Element | null {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (refusal) ref.current?.focus();
  }, [refusal]);
  if (!refusal) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      data-form-alert=""
      className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 outline-none focus-visible:ring-2 focus-visible:ring-red-700"
    >
      <p className="font-semibold">{refusal.title}</p>
      {refusal.description ? <p className="mt-1">{refusal.description}</p> : null}
    </div>
  );
}
