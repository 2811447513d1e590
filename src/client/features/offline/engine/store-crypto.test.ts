// The offline store's key and values (issue 27, decision 061) with Node's WebCrypto: the PIN unwraps the store key
// (a wrong one does not), values are sealed under their label, and the ciphertext holds nothing of the text.
import { describe, expect, it } from 'vitest';
import { newStoreKey, open, PIN_ITERATIONS, seal, unwrapStoreKey } from './store-crypto';

describe('store crypto', () => {
  it('wraps the store key under the PIN with a per-device salt and the full iteration count; a wrong PIN unwraps nothing', async () => {
    const a = await newStoreKey('482913');
    const b = await newStoreKey('482913');
    expect(a.wrapped.iterations).toBe(PIN_ITERATIONS);
    expect(PIN_ITERATIONS).toBeGreaterThanOrEqual(600_000);
    expect(Buffer.from(a.wrapped.salt).equals(Buffer.from(b.wrapped.salt))).toBe(false);
    expect(a.key.extractable).toBe(false);

    const sealed = await seal(a.key, 'records/p:1', { name: 'Ndeshipanda Hamutenya', allergy: 'Penicillin' });
    const again = await unwrapStoreKey('482913', a.wrapped);
    expect(again).not.toBeNull();
    expect(await open(again!, 'records/p:1', sealed)).toEqual({ name: 'Ndeshipanda Hamutenya', allergy: 'Penicillin' });
    expect(await unwrapStoreKey('482914', a.wrapped)).toBeNull();
    // Another device's key (same PIN, another salt and key) opens nothing of this one's.
    await expect(open(b.key, 'records/p:1', sealed)).rejects.toThrow();
  });

  it('binds each value to where it is stored and keeps no text in clear', async () => {
    const { key } = await newStoreKey('1234', 1_000);
    const sealed = await seal(key, 'records/p:1', { allergy: 'Penicillin' });
    expect(Buffer.from(sealed.data).toString('latin1')).not.toContain('Penicillin');
    await expect(open(key, 'records/p:2', sealed)).rejects.toThrow();
    const other = await seal(key, 'records/p:1', { allergy: 'Penicillin' });
    expect(Buffer.from(other.iv).equals(Buffer.from(sealed.iv))).toBe(false);
  });
});
