import { cn } from '../../lib/cn';

/** A decorative spinner; pair it with visible text (it is hidden from screen readers). */
export function Spinner({ className }: { className?: string }): React.JSX.Element {
  return (
    <span
      aria-hidden="true"
      className={cn('inline-block h-4 w-4 animate-spin rounded-full border-2 border-current border-r-transparent', className)}
    />
  );
}
