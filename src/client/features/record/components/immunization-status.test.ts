// The immunization reasons as the reader sees them (decision 044): every reason code of the contract renders in en,
// af and ng with each parameter filled in (dates as dd/mm/yyyy, ages and weeks in words), from the real locale files.
import { describe, expect, it } from 'vitest';
import { REASON_CODES, type DoseReason } from '../../../../contracts/immunization';
import en from '../../../locales/en/record.json';
import af from '../../../locales/af/record.json';
import ng from '../../../locales/ng/record.json';
import { Translator, type Resources, type TFunction } from '../../../lib/translator';
import { reasonText } from './immunization-status';

const PARAMS = {
  date: '2026-03-12',
  previousDate: '2026-03-12',
  previous: 'MR 1',
  dose: 'MR 2',
  series: 'Pentavalent',
  age: '9m',
  interval: '4w',
  weeks: 3,
};

function translator(lng: string, resources: Resources): TFunction {
  const i18n = new Translator(lng, 'record');
  i18n.addResourceBundle(lng, 'record', resources);
  return i18n.t;
}

describe('immunization reasons', () => {
  it.each([
    ['en', en],
    ['af', af],
    ['ng', ng],
  ])('%s: every code renders with its parameters filled in', (lng, resources) => {
    const t = translator(lng, resources);
    for (const code of REASON_CODES) {
      const text = reasonText(t, { code, params: PARAMS } as DoseReason);
      expect(text, code).not.toMatch(/\{\{|immunization\.reasons/);
      expect(text.length, code).toBeGreaterThan(5);
    }
  });

  it('reads as the issue asks in English (the dose is listed under "Due now", so its reason does not say "Due" again)', () => {
    const t = translator('en', en);
    expect(reasonText(t, { code: 'DUE_AFTER_INTERVAL', params: { previous: 'MR 1', previousDate: '2026-03-12', interval: '4w' } })).toBe(
      'MR 1 given on 12/03/2026, at least 4 weeks ago.',
    );
    expect(reasonText(t, { code: 'OVERDUE', params: { weeks: 3, date: '2026-10-01' } })).toBe('Overdue by 3 weeks (due 01/10/2026).');
    expect(reasonText(t, { code: 'OVERDUE', params: { weeks: 1, date: '2026-10-01' } })).toBe('Overdue by 1 week (due 01/10/2026).');
    expect(reasonText(t, { code: 'DUE_AT_AGE', params: { age: '0d', date: '2026-10-01' } })).toBe('Due at birth (01/10/2026).');
  });
});
