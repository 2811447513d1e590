import '../../test/dom';
// The button under a paged list: absent when every page is shown, loads the next page once per click, and says it is
// loading (disabled) while the page comes.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { LoadMoreButton, type PagedList } from './load-more-button';

function list(overrides: Partial<PagedList> = {}): PagedList & { calls: number } {
  const l = {
    hasNextPage: true,
    isFetchingNextPage: false,
    calls: 0,
    fetchNextPage: async () => {
      l.calls += 1;
    },
    ...overrides,
  };
  return l;
}

afterEach(cleanup);

describe('LoadMoreButton', () => {
  it('is not there when every page is shown', () => {
    render(<LoadMoreButton list={list({ hasNextPage: false })} label="More devices" pendingText="Loading..." />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('loads the next page on click', async () => {
    const l = list();
    render(<LoadMoreButton list={l} label="More devices" pendingText="Loading..." />);
    await userEvent.click(screen.getByRole('button', { name: 'More devices' }));
    expect(l.calls).toBe(1);
  });

  it('says it is loading, and does not load again, while the next page comes', async () => {
    const l = list({ isFetchingNextPage: true });
    render(<LoadMoreButton list={l} label="More devices" pendingText="Loading..." />);
    const button = screen.getByRole('button');
    expect(button.textContent).toContain('Loading...');
    expect(button.getAttribute('aria-busy')).toBe('true');
    await userEvent.click(button);
    expect(l.calls).toBe(0);
  });
});
