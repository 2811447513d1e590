import { describe, expect, it } from 'vitest';
import { dateOfBirthRangeForAges } from './ages';
import { ageOn, isIsoDate, todayIso } from './calendar';

describe('ages and dates', () => {
  it('recognizes real ISO dates only', () => {
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(isIsoDate('2023-02-29')).toBe(false);
    expect(isIsoDate('2024-13-01')).toBe(false);
    expect(isIsoDate('24-01-01')).toBe(false);
    expect(isIsoDate('2024-01-01T00:00:00Z')).toBe(false);
  });

  it('computes ages in completed years', () => {
    expect(ageOn('2000-06-15', '2025-06-14')).toBe(24);
    expect(ageOn('2000-06-15', '2025-06-15')).toBe(25);
    expect(ageOn('2000-02-29', '2025-02-28')).toBe(24);
  });

  it('turns an age range into the matching date-of-birth range, both ends inclusive', () => {
    const today = '2025-06-15';
    const r = dateOfBirthRangeForAges(30, 40, today);
    expect(r).toEqual({ from: '1984-06-16', to: '1995-06-15' });
    expect(ageOn(r.from, today)).toBe(40);
    expect(ageOn(r.to, today)).toBe(30);
    expect(ageOn(r.from.replace(/16$/, '15'), today)).toBe(41); // one day earlier is too old
    expect(dateOfBirthRangeForAges(0, 0, today)).toEqual({ from: '2024-06-16', to: '2025-06-15' });
    expect(dateOfBirthRangeForAges(0, 150, today).from).toBe('1874-06-16');
  });

  it('reads today in Namibian time', () => {
    expect(todayIso(new Date('2025-06-15T22:30:00Z'))).toBe('2025-06-16'); // 00:30 in Windhoek
    expect(todayIso(new Date('2025-06-15T21:30:00Z'))).toBe('2025-06-15');
  });
});
