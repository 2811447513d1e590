// The patient sign-in page's hand check (issue 21 item 18) gives the same answer as the server's schema: the same
// first message for every field, and the same values when it passes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { patientLoginInput } from './portal-login';
import { checkPatientLogin, isCalendarDate, type PatientLoginFields } from './portal-login-check';

function bySchema(input: PatientLoginFields): ReturnType<typeof checkPatientLogin> {
  const parsed = patientLoginInput.safeParse(input);
  if (parsed.success) return { success: true, data: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return { success: false, errors };
}

const digits = (min: number, max: number) => fc.stringMatching(new RegExp(`^\\d{${min},${max}}$`));
const ncNumber = fc.oneof(
  digits(0, 14),
  fc.string(),
  digits(11, 11).map((d) => ` ${d} `),
  fc.constant('1234567890a'),
);
const dateOfBirth = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`),
  fc.constantFrom('2024-02-29', '2023-02-29', '1900-02-29', '2000-02-29', '1849-12-31', '1850-01-01', '2150-12-31', '2151-01-01'),
  fc.constantFrom('21/07/1990', '1990-7-21', '', ' 1990-07-21'),
  fc.string(),
);
const pin = fc.oneof(digits(0, 8), fc.string(), fc.constant('12345a'));

describe('the patient sign-in hand check', () => {
  it('answers as patientLoginInput does, field by field', () => {
    fc.assert(
      fc.property(ncNumber, dateOfBirth, pin, (n, d, p) => {
        const input = { ncNumber: n, dateOfBirth: d, pin: p };
        expect(checkPatientLogin(input)).toEqual(bySchema(input));
      }),
      { numRuns: 3000 },
    );
  });

  it('knows the calendar: leap days, month lengths, no month 0 or 13', () => {
    expect(['2024-02-29', '2000-02-29', '0000-02-29', '1990-07-21', '2023-12-31'].every(isCalendarDate)).toBe(true);
    expect(['2023-02-29', '1900-02-29', '2023-04-31', '2023-00-10', '2023-13-01', '2023-01-00', '2023-1-01'].some(isCalendarDate)).toBe(
      false,
    );
  });
});
