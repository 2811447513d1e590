// TOTP (RFC 6238) with otpauth: SHA-1, 6 digits, 30-second steps, the authenticator apps' defaults. Codes are
// accepted one step either side of now (clock drift); the caller refuses a step at or before the last one used.
import { createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';

export const TOTP_ISSUER = 'National Health Records';
const PERIOD_SECONDS = 30;

const totpOf = (secret: string, label: string): TOTP =>
  new TOTP({ issuer: TOTP_ISSUER, label, algorithm: 'SHA1', digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) });

/** A new 160-bit secret, base32 (what authenticator apps take by hand). */
export const newTotpSecret = (): string => new Secret({ size: 20 }).base32;

/** The otpauth:// URI and its QR code as an SVG document. */
export async function totpProvisioning(secret: string, label: string): Promise<{ otpauthUri: string; qrSvg: string }> {
  const otpauthUri = totpOf(secret, label).toString();
  const qrSvg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { otpauthUri, qrSvg };
}

/** The time step of a valid 6-digit code at `now` (within one step of drift), or null. */
export function totpStep(secret: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(secret, 'check').validate({ token: code, timestamp: now.getTime(), window: 1 });
  if (delta === null) return null;
  return Math.floor(now.getTime() / 1000 / PERIOD_SECONDS) + delta;
}

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz023456789'; // 32 characters: no o, 1, l or i

/** Recovery codes of 10 characters (50 random bits each), shown as xxxxx-xxxxx. */
export function newRecoveryCodes(count: number): string[] {
  return Array.from({ length: count }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b & 31]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** What is stored of a recovery code: the SHA-256 of its characters without the hyphen. */
export const recoveryCodeHash = (code: string): string => createHash('sha256').update(code.replace(/-/g, '').toLowerCase()).digest('hex');
