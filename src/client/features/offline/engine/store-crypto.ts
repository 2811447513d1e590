// The offline store's encryption (issue 27, decision 061): every stored value is AES-GCM under a random store key;
// the store key is wrapped by a key derived from the device PIN (PBKDF2-SHA-256, per-device salt) and is held only in
// memory while unlocked. WebCrypto only, so the same code runs in the browser and in Node's tests.

/** PBKDF2 iterations for the PIN (OWASP's figure for PBKDF2-HMAC-SHA-256): a short PIN must cost a guesser dearly. */
export const PIN_ITERATIONS = 600_000;
const IV_BYTES = 12;
const SALT_BYTES = 16;

export interface WrappedKey {
  salt: Uint8Array<ArrayBuffer>;
  iterations: number;
  iv: Uint8Array<ArrayBuffer>;
  wrapped: ArrayBuffer;
}

/** An encrypted value as stored: the IV and the ciphertext (which carries GCM's tag). */
export interface Sealed {
  iv: Uint8Array<ArrayBuffer>;
  data: ArrayBuffer;
}

const subtle = (): SubtleCrypto => globalThis.crypto.subtle;
const randomBytes = (n: number): Uint8Array<ArrayBuffer> => globalThis.crypto.getRandomValues(new Uint8Array(n));
const utf8 = new TextEncoder();

async function pinKey(pin: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<CryptoKey> {
  const material = await subtle().importKey('raw', utf8.encode(pin), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, material, { name: 'AES-GCM', length: 256 }, false, [
    'wrapKey',
    'unwrapKey',
  ]);
}

/** A new random store key, wrapped under `pin`; the key itself is returned unextractable for use. */
export async function newStoreKey(pin: string, iterations = PIN_ITERATIONS): Promise<{ key: CryptoKey; wrapped: WrappedKey }> {
  const fresh = await subtle().generateKey({ name: 'AES-GCM', length: 256 }, true, ['encrypt', 'decrypt']);
  const salt = randomBytes(SALT_BYTES);
  const iv = randomBytes(IV_BYTES);
  const wrapped = await subtle().wrapKey('raw', fresh, await pinKey(pin, salt, iterations), { name: 'AES-GCM', iv });
  const wrappedKey: WrappedKey = { salt, iterations, iv, wrapped };
  // The usable copy is unextractable: nothing in the page can read the key out of it.
  return { key: await unwrapStoreKey(pin, wrappedKey).then((k) => k!), wrapped: wrappedKey };
}

/** The store key, or null when `pin` is not the one it was wrapped under (GCM's tag does not verify). */
export async function unwrapStoreKey(pin: string, w: WrappedKey): Promise<CryptoKey | null> {
  try {
    return await subtle().unwrapKey(
      'raw',
      w.wrapped,
      await pinKey(pin, w.salt, w.iterations),
      { name: 'AES-GCM', iv: w.iv },
      { name: 'AES-GCM', length: 256 },
      false,
      ['encrypt', 'decrypt'],
    );
  } catch {
    return null;
  }
}

/**
 * Encrypts a JSON value; `label` (the store and key it is stored under) is bound as additional data, so a value
 * moved to another record does not decrypt there.
 */
export async function seal(key: CryptoKey, label: string, value: unknown): Promise<Sealed> {
  const iv = randomBytes(IV_BYTES);
  const data = await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: utf8.encode(label) }, key, utf8.encode(JSON.stringify(value)));
  return { iv, data };
}

export async function open<T>(key: CryptoKey, label: string, sealed: Sealed): Promise<T> {
  const plain = await subtle().decrypt({ name: 'AES-GCM', iv: sealed.iv, additionalData: utf8.encode(label) }, key, sealed.data);
  return JSON.parse(new TextDecoder().decode(plain)) as T;
}
