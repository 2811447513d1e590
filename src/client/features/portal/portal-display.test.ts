import { describe, expect, it } from 'vitest';
import { toneOf } from './components/status-badge';
import { formatDateTime, formatDay } from './format';

describe('portal display rules', () => {
  it('shows dates en-GB (SPEC §9)', () => {
    expect(formatDay('2024-03-07')).toBe('07/03/2024');
    expect(formatDay('not a date')).toBe('not a date');
    expect(formatDateTime('not a time')).toBe('not a time');
    expect(formatDateTime(new Date(2026, 2, 2, 9, 5).toISOString())).toBe('02/03/2026 09:05');
  });

  it('sets active diagnoses and medications apart (SPEC §4)', () => {
    expect(toneOf('diagnosis', 'Active')).not.toBe(toneOf('diagnosis', 'Resolved'));
    expect(toneOf('medication', 'active')).not.toBe(toneOf('medication', 'Completed'));
  });

  it('reads allergy severity as high, medium or other', () => {
    expect(toneOf('allergy', 'Severe')).toBe(toneOf('allergy', 'high'));
    expect(toneOf('allergy', 'Moderate')).toBe(toneOf('allergy', 'medium'));
    expect(toneOf('allergy', 'Mild')).toBe(toneOf('allergy', 'anything else'));
    expect(new Set([toneOf('allergy', 'high'), toneOf('allergy', 'medium'), toneOf('allergy', 'low')]).size).toBe(3);
  });
});
