import { describe, expect, it } from 'vitest';
import { isBirthDatePin, isGuessablePin } from './portal-login';
import { patientActivateInput } from './portal-activate';
import { COMMON_PIN_COUNT, isCommonPin } from './common-pins';

const activation = { ncNumber: '71234567890', dateOfBirth: '1986-07-14', activationCode: 'ABCD-EFGH' };
const pinIssues = (pin: string) => {
  const parsed = patientActivateInput.safeParse({ ...activation, pin });
  return parsed.success ? [] : parsed.error.issues.filter((i) => i.path[0] === 'pin').map((i) => i.message);
};

describe('a new portal PIN', () => {
  it('refuses repeated digits, runs up or down, repeated pairs and triples', () => {
    for (const pin of ['000000', '777777', '123456', '012345', '456789', '654321', '987654', '121212', '909090', '123123', '580580']) {
      expect(isGuessablePin(pin), pin).toBe(true);
      expect(pinIssues(pin), pin).toEqual(['validation:pinTooEasy']);
    }
  });

  it('refuses the date of birth as six digits in the usual orders', () => {
    for (const pin of ['140786', '860714', '071486']) {
      expect(isBirthDatePin(pin, '1986-07-14'), pin).toBe(true);
      expect(pinIssues(pin), pin).toEqual(['validation:pinTooEasy']);
    }
  });

  it('accepts a PIN that is none of those, and leaves sign-in (the PIN already chosen) alone', () => {
    for (const pin of ['482917', '274916', '318642', '620394', '507318']) expect(pinIssues(pin), pin).toEqual([]);
    expect(pinIssues('12a456')).toEqual(['validation:pinFormat']);
  });

  it('refuses the most common six-digit PINs: keypad patterns, doubled runs, mirrored halves, dates (issue 21 item 3)', () => {
    for (const pin of ['112233', '147258', '159753', '123321', '111222', '246810', '258258', '010185', '251299', '199004']) {
      expect(isCommonPin(pin), pin).toBe(true);
      expect(pinIssues(pin), pin).toEqual(isGuessablePin(pin) ? ['validation:pinTooEasy'] : ['validation:pinTooCommon']);
    }
    expect(COMMON_PIN_COUNT).toBeGreaterThanOrEqual(1000);
  });
});
