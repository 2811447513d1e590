import { forwardRef, type InputHTMLAttributes } from 'react';
import { cn } from '../../lib/cn';

export const Input = forwardRef<HTMLInputElement, InputHTMLAttributes<HTMLInputElement>>(function Input({ className, ...props }, ref) {
  return (
    <input
      ref={ref}
      className={cn(
        'h-10 w-full rounded-md border border-slate-300 bg-white px-3 text-sm placeholder:text-slate-400',
        'disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-danger-600',
        className,
      )}
      {...props}
    />
  );
});
