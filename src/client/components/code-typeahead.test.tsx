// The code type-ahead (issue 22 item 3) rendered against the real server (decision 027: the page's fetch goes to the
// real app through inject, as a signed-in doctor): keyboard selection, free text marked uncoded, Escape and Tab, and
// onPick handing a lab test's unit and range to the form, in en, af and ng.
import '../test/dom';
import { describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../lib/i18n';
import type { CodeEntry, CodeKind } from '../../contracts/codes';
import { signInAs } from '../../server/test/staff';
import { realServer } from '../test/real-server';
import { renderWithApp, switchLanguage } from '../test/render';
import { Dialog } from './ui/dialog';
import { CodeTypeahead, EMPTY_CODED_TEXT, type CodedText } from './code-typeahead';

const server = realServer(async (t) => (await signInAs(t, 3)).cookie);

function Probe({ kind, onPick }: { kind: CodeKind; onPick?: (entry: CodeEntry) => void }): React.JSX.Element {
  const [value, setValue] = useState<CodedText>(EMPTY_CODED_TEXT);
  return (
    <form onSubmit={(e) => e.preventDefault()}>
      <label htmlFor="f">Medicine</label>
      <CodeTypeahead id="f" kind={kind} value={value} onChange={setValue} onPick={onPick} listLabel="Medicine" />
      <output data-testid="value">{JSON.stringify(value)}</output>
      <button type="button">Next</button>
    </form>
  );
}

const valueOf = (): CodedText => JSON.parse(screen.getByTestId('value').textContent ?? '{}') as CodedText;

describe('CodeTypeahead', () => {
  it.each(['en', 'af', 'ng'] as const)('picks a match with the keyboard and shows its code (%s)', async (lang) => {
    await switchLanguage(lang);
    const user = userEvent.setup();
    renderWithApp(<Probe kind="medications" />);
    const input = screen.getByRole('combobox', { name: 'Medicine' });
    expect(input.getAttribute('aria-expanded')).toBe('false');

    await user.type(input, 'amox');
    const list = await screen.findByRole('listbox', { name: 'Medicine' });
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect(input.getAttribute('aria-controls')).toBe(list.id);
    const options = screen.getAllByRole('option');
    expect(options[0]?.textContent).toContain('amoxicillin');
    expect(options[0]?.textContent).toContain('J01CA04');
    // Typed text, nothing picked yet: free text, marked uncoded.
    expect(valueOf()).toEqual({ text: 'amox', coded: null });
    expect(screen.getByText(i18n.t('common:codes.uncoded'))).toBeTruthy();

    await user.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-activedescendant')).toBe(options[0]?.id);
    expect(options[0]?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowDown}{ArrowUp}{Enter}');

    expect(valueOf()).toEqual({
      text: 'amoxicillin',
      coded: { code: 'J01CA04', codeSystem: 'http://www.whocc.no/atc', display: 'amoxicillin' },
    });
    expect((input as HTMLInputElement).value).toBe('amoxicillin');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    const marker = screen.getByText(i18n.t('common:codes.codeLabel', { code: 'J01CA04' }));
    expect(input.getAttribute('aria-describedby')).toContain(marker.id);
    // Only the look-ups went to the server, each one GET /api/codes.
    expect(server.transport.sent.every((r) => r.method === 'GET' && r.url.startsWith('/api/codes?kind=medications&q='))).toBe(true);
  });

  it('typing after a pick drops the code; free text stays, marked uncoded', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<Probe kind="medications" />);
    const input = screen.getByRole('combobox', { name: 'Medicine' });
    await user.type(input, 'paracet');
    await screen.findByRole('option', { name: /paracetamol/ });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(valueOf().coded?.code).toBe('N02BE01');

    await user.type(input, ' 500 mg syrup');
    expect(valueOf()).toEqual({ text: 'paracetamol 500 mg syrup', coded: null });
    expect(screen.getByText('uncoded')).toBeTruthy();
  });

  it('Escape closes the list and keeps the text; Enter without a highlighted match picks nothing', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<Probe kind="vaccines" />);
    const input = screen.getByRole('combobox', { name: 'Medicine' });
    await user.type(input, 'measles');
    await screen.findByRole('option', { name: /Measles and rubella/ });
    await user.keyboard('{Enter}');
    expect(valueOf()).toEqual({ text: 'measles', coded: null });
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect((input as HTMLInputElement).value).toBe('measles');
    // ArrowDown opens it again.
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(input.getAttribute('aria-expanded')).toBe('true'));
  });

  it('in a dialog, Escape first closes the list, then the dialog', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const closed: boolean[] = [];
    renderWithApp(
      <Dialog open onOpenChange={(open) => closed.push(!open)} title="Add medication">
        <Probe kind="medications" />
      </Dialog>,
    );
    const input = screen.getByRole('combobox', { name: 'Medicine' });
    await user.type(input, 'amox');
    await screen.findByRole('option', { name: /^amoxicillin J01CA04$/ });
    await user.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(closed).toEqual([]);
    expect((input as HTMLInputElement).value).toBe('amox');
    await user.keyboard('{Escape}');
    expect(closed).toEqual([true]);
  });

  it('Tab leaves the field with the list closed and the text as typed', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<Probe kind="diagnoses" />);
    const input = screen.getByRole('combobox', { name: 'Medicine' });
    await user.type(input, 'pneumonia');
    await screen.findAllByRole('option');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Next' }));
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(valueOf()).toEqual({ text: 'pneumonia', coded: null });
  });

  it('says so when nothing matches, and keeps the free text', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<Probe kind="medications" />);
    const input = screen.getByRole('combobox', { name: 'Medicine' });
    await user.type(input, 'omuti gwoshilongo');
    expect(await screen.findAllByText(i18n.t('common:codes.noMatches'))).not.toHaveLength(0);
    expect(valueOf()).toEqual({ text: 'omuti gwoshilongo', coded: null });
    expect(screen.getByText('ongekodeer')).toBeTruthy();
  });

  it('hands the picked entry to onPick: a lab test comes with its unit and reference range', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const onPick = vi.fn<(entry: CodeEntry) => void>();
    renderWithApp(<Probe kind="lab-results" onPick={onPick} />);
    await user.type(screen.getByRole('combobox', { name: 'Medicine' }), 'hba');
    await screen.findByRole('option', { name: /Hemoglobin A1c/ });
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onPick).toHaveBeenCalledTimes(1);
    expect(onPick.mock.calls[0]?.[0]).toMatchObject({
      code: '4548-4',
      unit: '%',
      valueType: 'numeric',
      referenceLow: 4,
      referenceHigh: 5.6,
    });
  });

  it('picks with the mouse as well', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<Probe kind="allergies" />);
    await user.type(screen.getByRole('combobox', { name: 'Medicine' }), 'penic');
    await user.click(await screen.findByRole('option', { name: /Penicillins/ }));
    expect(valueOf().coded).toMatchObject({ code: 'J01C', codeSystem: 'http://www.whocc.no/atc' });
  });
});
