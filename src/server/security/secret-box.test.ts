import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretBox } from './secret-box';

describe('secret box', () => {
  it('creates its key file once (mode 0600) and reads it back: what one process seals, the next opens', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'nhr-key-')), 'sub', 'mfa-secret.key');
    const sealed = secretBox({ value: undefined, file }).seal('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, 'utf8');
    expect(secretBox({ value: undefined, file }).open(sealed)).toBe('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
    expect(readFileSync(file, 'utf8')).toBe(key);
  });

  it('seals with a fresh IV each time, refuses another key or a changed value, and passes an unsealed value through', () => {
    const key = Buffer.alloc(32, 7).toString('base64');
    const box = secretBox({ value: key, file: '' });
    const a = box.seal('SEED');
    expect(a).not.toBe(box.seal('SEED'));
    expect(box.open(a)).toBe('SEED');
    expect(() => secretBox({ value: Buffer.alloc(32, 8).toString('base64'), file: '' }).open(a)).toThrow();
    const [iv, tag, ct] = a.slice(3).split('.');
    // One bit of the ciphertext flipped (replacing its last characters could, about once in 256 runs, spell
    // the same bytes: the test would then fail for no fault of the box).
    const changed = Buffer.from(ct!, 'base64url');
    changed[0] = changed[0]! ^ 1;
    expect(() => box.open(`v1.${iv}.${tag}.${changed.toString('base64url')}`)).toThrow();
    expect(box.open('JBSWY3DPEHPK3PXP')).toBe('JBSWY3DPEHPK3PXP');
    expect(() => secretBox({ value: 'too-short', file: '' })).toThrow(/32 bytes/);
  });
});
