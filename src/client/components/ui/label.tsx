import type { LabelHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>): React.JSX.Element {
  return <label className={cn('text-sm font-medium text-slate-700', className)} {...props} />;
}
