import '../test/dom';
// A component follows the page's translations (use-translation.ts): it re-renders in the new language, and again
// when a screen's namespace arrives after it rendered; what it computed from `t` is computed again.
import { useMemo } from 'react';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import en from '../locales/en/record.json';
import af from '../locales/af/record.json';
import { changeLanguage, loadNamespaces, startI18n } from './i18n';
import { useTranslation } from './use-translation';

function AppName(): React.JSX.Element {
  const { t, i18n } = useTranslation(['common', 'record']);
  const upper = useMemo(() => t('appName').toUpperCase(), [t]);
  return (
    <p lang={i18n.language}>
      {t('appName')} / {upper}
    </p>
  );
}

function RecordLoading(): React.JSX.Element {
  const { t } = useTranslation('record');
  return <p>{t('loading')}</p>;
}

describe('useTranslation', () => {
  it('re-renders in the new language, with what was computed from t computed again', async () => {
    Object.defineProperty(navigator, 'languages', { value: ['en'], configurable: true });
    await startI18n();
    render(<AppName />);
    expect(screen.getByText('National Health Records / NATIONAL HEALTH RECORDS').getAttribute('lang')).toBe('en');
    await act(() => changeLanguage('af'));
    expect(screen.getByText('Nasionale Gesondheidsrekords / NASIONALE GESONDHEIDSREKORDS').getAttribute('lang')).toBe('af');
  });

  it('re-renders when a namespace loaded after the first render arrives', async () => {
    await startI18n();
    await act(() => changeLanguage('en'));
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(<RecordLoading />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(errors).toHaveBeenCalledWith('i18n: missing translation record:loading (en)');
    errors.mockRestore();
    await act(() => loadNamespaces('record'));
    expect(screen.getByText(en.loading)).toBeTruthy();
    await act(() => changeLanguage('af'));
    expect(screen.getByText(af.loading)).toBeTruthy();
  });
});
