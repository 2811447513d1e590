// The translator's rules (translator.ts), each as i18next applied them in this app before it was replaced.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Translator } from './translator';

const COMMON = {
  appName: 'Records',
  errors: { LOCKED_OUT: 'Locked out', nested: { deeper: 'Deep' } },
  hello: 'Hello {{name}}, {{ name }}!',
  both: '{{a}} and {{b}}',
  rows_one: '{{count}} row',
  rows_other: '{{count}} rows',
  onlyPlain: '{{count}} things',
  empty: '',
};

function translator(lang = 'en'): Translator {
  const i18n = new Translator(lang, 'common');
  i18n.addResourceBundle('en', 'common', COMMON);
  i18n.addResourceBundle('en', 'record', { title: 'Record', errors: { LOCKED_OUT: 'Record locked' } });
  i18n.addResourceBundle('af', 'common', { appName: 'Rekords', rows_one: '{{count}} ry', rows_other: '{{count}} rye' });
  i18n.addResourceBundle('ng', 'common', {
    appName: 'Omishangwa',
    rows_one: '{{count}} omusholondo',
    rows_other: '{{count}} omishololondo',
  });
  return i18n;
}

const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
afterEach(() => errors.mockClear());

describe('the translator', () => {
  it('reads `ns:key` in that namespace and a plain key in its own, never searching the others', () => {
    const i18n = translator();
    const record = i18n.getFixedT('en', 'record');
    expect(record('title')).toBe('Record');
    expect(record('common:appName')).toBe('Records');
    expect(i18n.t('record:title')).toBe('Record');
    expect(record('appName')).toBe('appName');
    expect(errors).toHaveBeenCalledWith('i18n: missing translation record:appName (en)');
  });

  it('walks nested keys with dots, and finds only strings', () => {
    const i18n = translator();
    expect(i18n.t('errors.LOCKED_OUT')).toBe('Locked out');
    expect(i18n.t('common:errors.nested.deeper')).toBe('Deep');
    expect(i18n.t('record:errors.LOCKED_OUT')).toBe('Record locked');
    expect(i18n.t('errors', { defaultValue: 'not an object' })).toBe('not an object');
    expect(i18n.t('empty')).toBe('');
  });

  it('takes a key with spaces before its colon (a server message) as a whole', () => {
    expect(translator().t('Invalid input: expected string', { defaultValue: 'fallback' })).toBe('fallback');
    expect(errors).not.toHaveBeenCalled();
  });

  it('fills placeholders unescaped; null or undefined given gives nothing, a value not given stays', () => {
    const i18n = translator();
    expect(i18n.t('hello', { name: '<b>Ndapewa & co</b>' })).toBe('Hello <b>Ndapewa & co</b>, <b>Ndapewa & co</b>!');
    expect(i18n.t('both', { a: 1, b: null })).toBe('1 and ');
    expect(i18n.t('both', { a: undefined })).toBe(' and {{b}}');
    expect(i18n.t('hello', { name: '$& {{name}}' })).toBe('Hello $& {{name}}, $& {{name}}!');
  });

  it.each([
    ['en', ['0 rows', '1 row', '2 rows', '5 rows', '1.5 rows']],
    ['af', ['0 rye', '1 ry', '2 rye', '5 rye', '1.5 rye']],
    // No CLDR data for Oshiwambo: English's rule (1 is one), as i18next gave on an English machine.
    ['ng', ['0 omishololondo', '1 omusholondo', '2 omishololondo', '5 omishololondo', '1.5 omishololondo']],
  ])('picks _one or _other by the plural rule of %s', (lang, expected) => {
    const t = translator().getFixedT(lang, 'common');
    expect([0, 1, 2, 5, 1.5].map((count) => t('rows', { count }))).toEqual(expected);
  });

  it('falls back from the plural forms to the plain key, and treats a count given as text as no count', () => {
    const i18n = translator();
    expect(i18n.t('onlyPlain', { count: 3 })).toBe('3 things');
    expect(i18n.t('rows', { count: '3' })).toBe('rows');
  });

  it('gives the defaultValue of a missing key, interpolated, without a report', () => {
    const i18n = translator();
    expect(i18n.t('roles.Chief', { defaultValue: 'Chief {{n}}', n: 2 })).toBe('Chief 2');
    expect(i18n.t('roles.Chief', { defaultValue: '' })).toBe('');
    expect(errors).not.toHaveBeenCalled();
  });

  it('gives a missing key as written (without its namespace) and reports it once, in its language', () => {
    const t = translator().getFixedT('af', 'common');
    expect(t('record:nothing.here')).toBe('nothing.here');
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors).toHaveBeenCalledWith('i18n: missing translation record:nothing.here (af)');
    expect(t('rows_two', { count: 2 })).toBe('rows_two');
    expect(errors).toHaveBeenLastCalledWith('i18n: missing translation common:rows_two (af)');
    expect(errors).toHaveBeenCalledTimes(2);
  });

  it('looks a key up in the language of the `lng` option', () => {
    const i18n = translator('af');
    expect(i18n.t('appName')).toBe('Rekords');
    expect(i18n.t('appName', { lng: 'en' })).toBe('Records');
    expect(i18n.getFixedT('ng', 'common')('appName', { lng: 'en' })).toBe('Records');
  });

  it('keeps a fixed-language translator in its language when the page changes language', () => {
    const i18n = translator('en');
    const ng = i18n.getFixedT('ng', 'common');
    i18n.changeLanguage('af');
    expect(ng('appName')).toBe('Omishangwa');
    expect(i18n.t('appName')).toBe('Rekords');
  });

  it('says whether a key exists in the page language', () => {
    const i18n = translator('en');
    expect(i18n.exists('record:errors.LOCKED_OUT')).toBe(true);
    expect(i18n.exists('appName')).toBe(true);
    expect(i18n.exists('record:appName')).toBe(false);
    i18n.changeLanguage('af');
    expect(i18n.exists('errors.LOCKED_OUT')).toBe(false);
    expect(errors).not.toHaveBeenCalled();
  });

  it('hands components a new function after each change, the same one between changes', () => {
    const i18n = translator('en');
    const seen = vi.fn();
    const unsubscribe = i18n.subscribe(seen);
    const before = i18n.current('record');
    expect(i18n.current('record')).toBe(before);
    i18n.changeLanguage('en');
    expect(seen).not.toHaveBeenCalled();
    i18n.changeLanguage('af');
    expect(seen).toHaveBeenCalledTimes(1);
    const after = i18n.current('record');
    expect(after).not.toBe(before);
    i18n.addResourceBundle('af', 'record', { title: 'Rekord' });
    expect(seen).toHaveBeenCalledTimes(2);
    expect(i18n.current('record')).not.toBe(after);
    expect(i18n.current('record')('title')).toBe('Rekord');
    unsubscribe();
    i18n.changeLanguage('ng');
    expect(seen).toHaveBeenCalledTimes(2);
  });
});
