import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { Spinner } from './spinner';

const variants = {
  primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-brand-600/50',
  secondary: 'bg-white text-slate-800 border border-slate-300 hover:bg-slate-100 disabled:text-slate-400',
  ghost: 'text-slate-700 hover:bg-slate-100',
  destructive: 'bg-danger-600 text-white hover:bg-red-700 disabled:bg-danger-600/50',
} as const;
const sizes = { sm: 'h-8 px-3 text-sm', md: 'h-10 px-4 text-sm', lg: 'h-11 px-6 text-base', icon: 'h-9 w-9' } as const;

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** While true the button is disabled and shows a spinner with `pendingText` (e.g. 'Signing in...'). */
  pending?: boolean;
  pendingText?: string;
}

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'primary', size = 'md', className, type = 'button', pending = false, pendingText, disabled, children, onClick, ...props },
  ref,
) {
  // Pending is aria-disabled, not disabled: a disabled button drops keyboard focus to the page body (issue 21 item
  // 16), so the focused button keeps focus while its work runs and a click or Enter does nothing meanwhile.
  return (
    <button
      ref={ref}
      type={type}
      disabled={disabled}
      aria-disabled={pending || undefined}
      aria-busy={pending || undefined}
      className={cn(
        'inline-flex items-center justify-center gap-2 rounded-md font-medium transition-colors disabled:cursor-not-allowed',
        variants[variant],
        sizes[size],
        pending && 'cursor-progress opacity-70',
        className,
      )}
      onClick={(e) => {
        if (pending) {
          e.preventDefault(); // also stops the form's submit: Enter in a field clicks the submit button
          return;
        }
        onClick?.(e);
      }}
      {...props}
    >
      {pending ? (
        <>
          <Spinner /> {pendingText ?? children}
        </>
      ) : (
        children
      )}
    </button>
  );
});
