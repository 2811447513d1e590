// The button under a paged list (an infinite query): loads the next page, shows it is loading, and is not there when
// every page is shown. One component for every such list, so they all behave alike. Wrapped so that a column's
// stretch does not widen it.
import { Button } from './button';

/** What the button needs of TanStack Query's infinite query. */
export interface PagedList {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export function LoadMoreButton({
  list,
  label,
  pendingText,
  size,
}: {
  list: PagedList;
  label: string;
  pendingText: string;
  size?: 'sm' | 'md';
}): React.JSX.Element | null {
  if (!list.hasNextPage) return null;
  return (
    <div>
      <Button
        variant="secondary"
        size={size}
        pending={list.isFetchingNextPage}
        pendingText={pendingText}
        onClick={() => void list.fetchNextPage()}
      >
        {label}
      </Button>
    </div>
  );
}
