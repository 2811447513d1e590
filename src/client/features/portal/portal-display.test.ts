import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDay } from './format';

describe('portal display rules', () => {
  it('shows dates en-GB (SPEC §9)', () => {
    expect(formatDay('2024-03-07')).toBe('07/03/2024');
    expect(formatDay('not a date')).toBe('not a date');
    expect(formatDateTime('not a time')).toBe('not a time');
    expect(formatDateTime(new Date(2026, 2, 2, 9, 5).toISOString())).toBe('02/03/2026 09:05');
  });
});
