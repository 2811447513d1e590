// The heading of a screen's main content: it takes keyboard focus when the screen appears (after sign-in, Grant
// Access, Back to Search), so keyboard and screen-reader users start at the new content, not at the page's top.
import type { HTMLAttributes } from 'react';
import { cn } from '../../lib/cn';
import { useFocusOnMount } from '../../lib/focus';

export function MainHeading({ className, level = 2, ...props }: HTMLAttributes<HTMLHeadingElement> & { level?: 1 | 2 }): React.JSX.Element {
  const ref = useFocusOnMount<HTMLHeadingElement>();
  const Tag = level === 1 ? 'h1' : 'h2';
  return <Tag ref={ref} tabIndex={-1} data-main-heading="" className={cn('focus:outline-none', className)} {...props} />;
}
