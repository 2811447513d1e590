// Builds src/contracts/data/common-six-digit-pins.json (issue 21 item 3, decision 032): six-digit PINs people choose
// most often, made from the well-known classes of human-chosen PINs, because no measured frequency list could be
// downloaded here. Deterministic: the same input gives the same file (scripts/common-pins.test.ts checks the shipped
// file against this generator). Run: node --import tsx scripts/common-pins.ts
// The classes and their order are described in src/contracts/data/common-six-digit-pins.SOURCE.md.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const DIGITS = '0123456789';
const d = (n: number): string => String(((n % 10) + 10) % 10);
const pad2 = (n: number): string => String(n).padStart(2, '0');

/** Phone keypad strokes of three keys: rows, columns, diagonals and the middle column down to 0, both ways. */
const KEYPAD_STROKES = ['123', '456', '789', '147', '258', '369', '159', '357', '580'].flatMap((s) => [s, [...s].reverse().join('')]);

/** Memorable sequences that are not one digit apart: even and odd digits. */
const EVEN_ODD = ['246810', '135790', '135791', '024680', '975310', '086420', '108642', '135246', '246135', '132435'];

/** Days people use as dates (DD, MM): New Year, Valentine's Day, Independence Day (Namibia, 21 March), Christmas. */
const SPECIAL_DAYS: [number, number][] = [
  [1, 1],
  [14, 2],
  [21, 3],
  [25, 12],
];

export function generateCommonPins(): string[] {
  const out = new Set<string>();
  const add = (pin: string): void => {
    if (/^\d{6}$/.test(pin)) out.add(pin);
  };
  // 1. One digit six times.
  for (const a of DIGITS) add(a.repeat(6));
  // 2. Runs one digit apart, up and down, wrapping past 9 (123456, 654321, 567890, 890123).
  for (let start = 0; start < 10; start++) {
    add([0, 1, 2, 3, 4, 5].map((i) => d(start + i)).join(''));
    add([0, 1, 2, 3, 4, 5].map((i) => d(start - i)).join(''));
  }
  // 3. Even and odd digits in order.
  EVEN_ODD.forEach(add);
  // 4. Keypad patterns: two three-key strokes one after the other (147258, 159753, 123789, 741852), or a stroke and
  //    its mirror (123321, 147741).
  for (const a of KEYPAD_STROKES) for (const b of KEYPAD_STROKES) add(a + b);
  // 5. Doubled digits in a run (112233, 998877) and two digits three times each (111222, 000999).
  for (let start = 0; start < 10; start++) {
    add([0, 0, 1, 1, 2, 2].map((i) => d(start + i)).join(''));
    add([0, 0, 1, 1, 2, 2].map((i) => d(start - i)).join(''));
  }
  for (const a of DIGITS) for (const b of DIGITS) add(a.repeat(3) + b.repeat(3));
  // 6. A pair three times (121212) and a triple twice (123123, 580580).
  for (const a of DIGITS) for (const b of DIGITS) add((a + b).repeat(3));
  for (const a of DIGITS) for (const b of DIGITS) for (const c of DIGITS) add((a + b + c).repeat(2));
  // 7. Mirrored halves (123321, 112211, 908809).
  for (const a of DIGITS) for (const b of DIGITS) for (const c of DIGITS) add(a + b + c + c + b + a);
  // 8. Dates: special days as DDMMYY, MMDDYY and YYMMDD for the years 1950-2025; the year and month as YYYYMM for
  //    1960-2010 (birth years of most adult patients).
  for (let year = 1950; year <= 2025; year++) {
    const yy = pad2(year % 100);
    for (const [dd, mm] of SPECIAL_DAYS) {
      add(pad2(dd) + pad2(mm) + yy);
      add(pad2(mm) + pad2(dd) + yy);
      add(yy + pad2(mm) + pad2(dd));
    }
  }
  for (let year = 1960; year <= 2010; year++) for (let mm = 1; mm <= 12; mm++) add(String(year) + pad2(mm));
  return [...out];
}

export const COMMON_PINS_FILE = fileURLToPath(new URL('../src/contracts/data/common-six-digit-pins.json', import.meta.url));

/** The file's text: a JSON array, one PIN a line, in the order generated. */
export const commonPinsFileText = (pins: readonly string[]): string => `[\n${pins.map((p) => `  "${p}"`).join(',\n')}\n]\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const pins = generateCommonPins();
  writeFileSync(COMMON_PINS_FILE, commonPinsFileText(pins));
  console.log(`${pins.length} PINs written to ${COMMON_PINS_FILE}`);
}
