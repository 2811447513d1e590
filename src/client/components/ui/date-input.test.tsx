import '../../test/dom';
// Dates are typed and shown as day/month/year in every language (issue 21 item 19), whatever the browser's locale:
// the form gets ISO for a readable date and the typed text otherwise (the form's schema refuses it in the user's
// language).
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithApp, switchLanguage } from '../../test/render';
import { DateInput, isoFromTyped } from './date-input';

function Probe({ initial = '' }: { initial?: string }): React.JSX.Element {
  const [value, setValue] = useState(initial);
  return (
    <>
      <label htmlFor="d">Date</label>
      <DateInput id="d" value={value} onChange={setValue} />
      <output data-testid="value">{value}</output>
      <button type="button" onClick={() => setValue('')}>
        Clear
      </button>
    </>
  );
}

afterEach(cleanup);

describe('isoFromTyped', () => {
  it.each([
    ['14/07/1986', '1986-07-14'],
    ['4/7/1986', '1986-07-04'],
    ['04.07.1986', '1986-07-04'],
    ['1986-07-14', '1986-07-14'],
    [' 14-07-1986 ', '1986-07-14'],
  ])('reads %s as %s', (typed, iso) => expect(isoFromTyped(typed)).toBe(iso));

  it.each(['07/1986', '14/07/86', 'yesterday', '', '1986/07/14'])('reads %s as nothing', (typed) => expect(isoFromTyped(typed)).toBeNull());
});

describe('DateInput', () => {
  it.each(['en', 'af', 'ng'] as const)('shows day/month/year and hands ISO to the form (%s)', async (lang) => {
    await switchLanguage(lang);
    const user = userEvent.setup();
    renderWithApp(<Probe initial="2026-03-12" />);
    const input = screen.getByLabelText('Date') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.value).toBe('12/03/2026');
    expect(input.placeholder).toMatch(/^dd\/mm\/(yyyy|jjjj)$/);
    await user.clear(input);
    await user.type(input, '14/07/1986');
    expect(screen.getByTestId('value').textContent).toBe('1986-07-14');
    expect(input.value).toBe('14/07/1986');
  });

  it('hands unreadable text over as typed, and a reset from the form empties the field', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<Probe />);
    const input = screen.getByLabelText('Date') as HTMLInputElement;
    await user.type(input, '31/13');
    expect(screen.getByTestId('value').textContent).toBe('31/13');
    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(input.value).toBe('');
  });
});
