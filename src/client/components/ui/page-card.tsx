import { useEffect, useRef, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Card, CardContent, CardDescription, CardHeader } from './card';

export interface PageCardProps {
  /** The small line above the title (the product name). */
  eyebrow: ReactNode;
  title: ReactNode;
  description: ReactNode;
  wide?: boolean;
  children: ReactNode;
}

/**
 * A page that is one centred card with its heading: sign-in, registration, first-time setup. The heading takes
 * keyboard focus when the page appears (the one rule for a route change, issue 21 item 16), unless a field of the
 * card already has it (a step that focuses its only field).
 */
export function PageCard({ eyebrow, title, description, wide = false, children }: PageCardProps): React.JSX.Element {
  const card = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Again when the title changes: one card may show another page in place (sign-in, then registration).
  const titleKey = typeof title === 'string' ? title : null;
  useEffect(() => {
    if (!card.current?.contains(document.activeElement)) heading.current?.focus({ preventScroll: true });
  }, [titleKey]);
  return (
    <Card ref={card} className={cn('w-full', wide ? 'max-w-xl' : 'max-w-md')}>
      <CardHeader>
        <p className="text-sm font-medium text-brand-700">{eyebrow}</p>
        <h1 ref={heading} tabIndex={-1} data-main-heading="" className="text-xl font-semibold text-slate-900 focus:outline-none">
          {title}
        </h1>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
