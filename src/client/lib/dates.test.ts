import { describe, expect, it } from 'vitest';
import { formatAuditTimestamp, formatDate, formatDateTime } from './dates';

describe('client dates (SPEC §2, §9: en-GB in every language)', () => {
  it('shows a calendar date as dd/MM/yyyy without any time-zone shift, a dash when missing', () => {
    expect(formatDate('2025-01-31')).toBe('31/01/2025');
    expect(formatDate('2024-03-07')).toBe('07/03/2024');
    expect(formatDate(null)).toBe('-');
    expect(formatDate('not a date')).toBe('not a date');
  });

  it('shows a timestamp in the device time zone', () => {
    expect(formatDateTime(new Date(2026, 2, 2, 9, 5).toISOString())).toBe('02/03/2026 09:05');
    expect(formatAuditTimestamp(new Date(2026, 2, 2, 9, 5, 7).toISOString())).toBe('2026-03-02 09:05:07');
    expect(formatDateTime('not a time')).toBe('not a time');
    expect(formatDateTime(undefined)).toBe('-');
  });
});
