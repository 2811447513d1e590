// The device PIN's rules (issue 27, decision 061): six digits or more, entered twice. The PIN never leaves the device:
// it derives the key that wraps the store's key (engine), so only the client checks it.
import { enableDeviceInput } from '../../../../contracts/offline';

export const PIN_MIN_DIGITS = 6;
export const PIN_MAX_DIGITS = 32;

/** The offline namespace's key of what is wrong with the PIN, or null. */
export function pinProblem(pin: string, again: string): string | null {
  if (!/^\d+$/.test(pin) || pin.length < PIN_MIN_DIGITS || pin.length > PIN_MAX_DIGITS) return 'enable.pinRule';
  if (pin !== again) return 'enable.pinMismatch';
  return null;
}

/** The validation key of what is wrong with the device's name, or null (the server's contract). */
export function labelProblem(label: string): string | null {
  const parsed = enableDeviceInput.safeParse({ label });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'validation:invalidValue');
}
