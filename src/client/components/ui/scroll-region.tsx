// A wide table's frame: it scrolls sideways on a phone and is focusable, so a keyboard can scroll it too (axe
// scrollable-region-focusable, issue 21 item 17); named for screen readers.
import type { ReactNode } from 'react';

export function ScrollRegion({ label, children }: { label: string; children: ReactNode }): React.JSX.Element {
  return (
    <div
      tabIndex={0}
      role="region"
      aria-label={label}
      className="overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:ring-2 focus-visible:ring-brand-600"
    >
      {children}
    </div>
  );
}
