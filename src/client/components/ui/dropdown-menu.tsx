import type { ReactNode } from 'react';
import { DropdownMenu as RadixMenu } from 'radix-ui';

// Not modal, and rendered in place (no portal): a modal menu hid the rest of the page with aria-hidden while
// focusable controls stayed in it (axe aria-hidden-focus), and a portalled one sat outside every landmark.

export interface MenuEntry {
  key: string;
  label: ReactNode;
  onSelect: () => void;
}

export function DropdownMenu({
  trigger,
  header,
  entries,
  triggerLabel,
}: {
  trigger: ReactNode;
  header?: ReactNode;
  entries: MenuEntry[];
  triggerLabel: string;
}): React.JSX.Element {
  return (
    <RadixMenu.Root modal={false}>
      <RadixMenu.Trigger aria-label={triggerLabel} className="flex items-center gap-2 rounded-md px-2 py-1 hover:bg-slate-100">
        {trigger}
      </RadixMenu.Trigger>
      <RadixMenu.Content align="end" sideOffset={6} className="z-50 min-w-52 rounded-md border border-slate-200 bg-white p-1 shadow-lg">
        {header ? <RadixMenu.Label className="px-3 py-2 text-sm">{header}</RadixMenu.Label> : null}
        {header ? <RadixMenu.Separator className="my-1 h-px bg-slate-200" /> : null}
        {entries.map((e) => (
          <RadixMenu.Item
            key={e.key}
            onSelect={e.onSelect}
            className="cursor-pointer rounded px-3 py-2 text-sm outline-none data-[highlighted]:bg-slate-100"
          >
            {e.label}
          </RadixMenu.Item>
        ))}
      </RadixMenu.Content>
    </RadixMenu.Root>
  );
}
