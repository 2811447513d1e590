// The most common six-digit PINs (issue 21 item 3, decision 032): refused as a new portal PIN. The list is data,
// src/contracts/data/common-six-digit-pins.json, made by scripts/common-pins.ts; how, and its licence, are in
// src/contracts/data/common-six-digit-pins.SOURCE.md. Only the activation screen and the server load it.
import pins from './data/common-six-digit-pins.json';

const COMMON_PINS: ReadonlySet<string> = new Set(pins);

/** How many PINs the list holds. */
export const COMMON_PIN_COUNT = COMMON_PINS.size;

/** Whether the PIN is on the list of common six-digit PINs. */
export const isCommonPin = (pin: string): boolean => COMMON_PINS.has(pin);
