import type { ReactNode } from 'react';
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

/** A page that is one centred card with its heading: sign-in, registration, first-time setup. */
export function PageCard({ eyebrow, title, description, wide = false, children }: PageCardProps): React.JSX.Element {
  return (
    <Card className={cn('w-full', wide ? 'max-w-xl' : 'max-w-md')}>
      <CardHeader>
        <p className="text-sm font-medium text-brand-700">{eyebrow}</p>
        <h1 className="text-xl font-semibold text-slate-900">{title}</h1>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}
