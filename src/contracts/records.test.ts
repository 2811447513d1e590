// The record schemas judged against a fixed clock: "today" is the clinic's day (Africa/Windhoek, UTC+2).
import { describe, expect, it } from 'vitest';
import { addYears, ageOn, isIsoDate, todayIso } from './calendar';
import { recordInputs } from './kinds';

const at = (iso: string) => () => new Date(iso);
const allergy = { allergen: 'Penicillin', reaction: 'Rash', severity: 'Mild' };

describe('clinic dates', () => {
  it('is already tomorrow in Windhoek at 22:30 UTC', () => {
    expect(todayIso(new Date('2025-06-15T21:59:00Z'))).toBe('2025-06-15');
    expect(todayIso(new Date('2025-06-15T22:30:00Z'))).toBe('2025-06-16');
  });

  it('accepts real calendar dates only', () => {
    expect(['2024-02-29', '2025-12-31'].every(isIsoDate)).toBe(true);
    expect(['2025-02-29', '2025-04-31', '2025-1-01', ''].some(isIsoDate)).toBe(false);
  });

  it('moves by calendar years, 29 February to 28 February', () => {
    expect(addYears('2024-02-29', -100)).toBe('1924-02-29');
    expect(addYears('2024-02-29', 1)).toBe('2025-02-28');
  });

  it('computes ages, null for a birth date after today', () => {
    expect(ageOn('2025-06-16', '2025-06-15')).toBeNull();
    expect(ageOn('2025-06-15', '2025-06-15')).toBe(0);
  });
});

describe('recordInputs(now)', () => {
  it('judges "in the future" by the clinic day of the given clock', () => {
    const lateEvening = recordInputs(at('2025-06-15T22:30:00Z')).allergies;
    expect(lateEvening.safeParse({ ...allergy, reportedDate: '2025-06-16' }).success).toBe(true);
    const morning = recordInputs(at('2025-06-15T08:00:00Z')).allergies;
    const res = morning.safeParse({ ...allergy, reportedDate: '2025-06-16' });
    expect(res.error?.issues.map((i) => i.message)).toEqual(['validation:dateFuture']);
  });

  it('turns blank optional values into null and trims text', () => {
    const parsed = recordInputs(at('2025-06-15T08:00:00Z')).diagnoses.parse({
      condition: '  Asthma ',
      status: 'Chronic',
      diagnosedDate: '2020-01-01',
      resolvedDate: '',
      description: '   ',
      doctor: 'Dr. Iipumbu',
      facility: 'Rundu State Hospital',
    });
    expect(parsed).toMatchObject({ condition: 'Asthma', resolvedDate: null, description: null });
  });

  it('gives one message per missing field (the first rule that fails)', () => {
    const res = recordInputs().vaccines.safeParse({});
    expect(res.error?.issues.map((i) => `${i.path.join('.')}:${i.message}`).sort()).toEqual([
      'date:validation:dateRequired',
      'dose:validation:doseRequired',
      'facility:validation:facilityRequired',
      'vaccine:validation:vaccineNameRequired',
    ]);
  });
});
