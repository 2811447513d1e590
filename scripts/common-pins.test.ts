// The shipped list of common PINs (issue 21 item 3) is exactly what its documented generator makes, holds at least
// 1,000 distinct six-digit PINs with the patterns the attack used, and leaves the PINs tests and journeys choose.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMON_PINS_FILE, commonPinsFileText, generateCommonPins } from './common-pins';

describe('src/contracts/data/common-six-digit-pins.json', () => {
  it('is the output of scripts/common-pins.ts, with its source note beside it', () => {
    expect(readFileSync(COMMON_PINS_FILE, 'utf8')).toBe(commonPinsFileText(generateCommonPins()));
    const note = readFileSync(COMMON_PINS_FILE.replace(/\.json$/, '.SOURCE.md'), 'utf8');
    expect(note).toMatch(/not measured/i);
    expect(note).toMatch(/Licence/);
  });

  it('holds at least 1,000 distinct six-digit PINs, including the ones the attack got through', () => {
    const pins = JSON.parse(readFileSync(COMMON_PINS_FILE, 'utf8')) as string[];
    expect(pins.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(pins).size).toBe(pins.length);
    expect(pins.every((p) => /^\d{6}$/.test(p))).toBe(true);
    for (const pin of ['112233', '147258', '159753', '123321']) expect(pins).toContain(pin);
    for (const pin of ['482917', '593017', '731864', '482910']) expect(pins).not.toContain(pin);
  });
});
