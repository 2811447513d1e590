import type { ReactNode } from 'react';
import { RadioGroup } from 'radix-ui';
import { cn } from '../../lib/cn';

export interface RadioCardOption {
  value: string;
  title: ReactNode;
  description?: ReactNode;
}

export function RadioCards({
  options,
  value,
  onValueChange,
  label,
  columns = 3,
}: {
  options: RadioCardOption[];
  value: string;
  onValueChange: (v: string) => void;
  label: string;
  columns?: 1 | 2 | 3;
}): React.JSX.Element {
  return (
    <RadioGroup.Root
      aria-label={label}
      value={value}
      onValueChange={onValueChange}
      className={cn('grid gap-3', columns === 3 ? 'sm:grid-cols-3' : columns === 2 ? 'sm:grid-cols-2' : '')}
    >
      {options.map((o) => (
        <RadioGroup.Item
          key={o.value}
          value={o.value}
          className="flex flex-col items-start gap-1 rounded-lg border border-slate-300 bg-white p-4 text-left data-[state=checked]:border-brand-600 data-[state=checked]:bg-brand-50 data-[state=checked]:ring-1 data-[state=checked]:ring-brand-600"
        >
          <span className="text-sm font-semibold text-slate-900">{o.title}</span>
          {o.description ? <span className="text-xs text-slate-600">{o.description}</span> : null}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
