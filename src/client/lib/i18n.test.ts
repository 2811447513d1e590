import '../test/dom';
// The page's language without i18next-browser-languagedetector (issue 21 item 18, SPEC §1): the stored choice, then
// the browser's languages in order, then <html lang>, then English; the choice is kept in local storage and in the
// `language` cookie the server reads for the next page.
import { afterEach, describe, expect, it } from 'vitest';
import i18n, { changeLanguage, detectLanguage, startI18n } from './i18n';

function browserLanguages(languages: string[]): void {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  Object.defineProperty(navigator, 'language', { value: languages[0] ?? '', configurable: true });
}

afterEach(() => {
  localStorage.clear();
  document.documentElement.lang = '';
  browserLanguages(['en-US', 'en']);
});

describe('detectLanguage', () => {
  it('takes the stored choice before the browser', () => {
    localStorage.setItem('language', 'ng');
    browserLanguages(['af-ZA', 'en']);
    expect(detectLanguage()).toBe('ng');
  });

  it('takes the first of the browser languages it knows, by language (af-ZA is af)', () => {
    browserLanguages(['fr-FR', 'AF-za', 'en-GB']);
    expect(detectLanguage()).toBe('af');
  });

  it('ignores a stored value that is no language of the app', () => {
    localStorage.setItem('language', 'xx');
    browserLanguages(['ng']);
    expect(detectLanguage()).toBe('ng');
  });

  it('falls back to the page tag, then English', () => {
    browserLanguages(['fr-FR', 'de']);
    document.documentElement.lang = 'af';
    expect(detectLanguage()).toBe('af');
    document.documentElement.lang = '';
    expect(detectLanguage()).toBe('en');
  });
});

describe('startI18n', () => {
  it("starts in the browser's language, keeps it in storage and the cookie, and keeps a new choice the same way", async () => {
    browserLanguages(['af-ZA', 'en']);
    await startI18n();
    expect(i18n.language).toBe('af');
    expect(i18n.t('common:appName')).not.toBe('appName');
    expect(document.documentElement.lang).toBe('af');
    expect(localStorage.getItem('language')).toBe('af');
    expect(document.cookie).toContain('language=af');

    await changeLanguage('ng');
    expect(document.documentElement.lang).toBe('ng');
    expect(localStorage.getItem('language')).toBe('ng');
    expect(document.cookie).toContain('language=ng');
  });
});
