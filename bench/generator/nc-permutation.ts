// Unique NC numbers for bulk seeding without a lookup: a keyed permutation (a Feistel network with cycle walking)
// maps patient number i to a distinct 10-digit payload in 1,000,000,000..9,999,999,999, then the Luhn digit is added.
import { luhnCheckDigit } from '../../src/contracts/nc-number';
import { mix32 } from './random';

const DOMAIN = 9_000_000_000;
const HALF_BITS = 17; // two 17-bit halves cover 2^34 > DOMAIN
const HALF = 2 ** HALF_BITS;
const MASK = HALF - 1;
const ROUNDS = 4;

export class NcNumberPermutation {
  private readonly keys: number[];

  constructor(seed: number) {
    this.keys = Array.from({ length: ROUNDS }, (_, r) => mix32(Math.imul(seed | 0, 0x27d4eb2d) ^ (r * 0x165667b1)));
  }

  private encrypt(x: number): number {
    let left = Math.floor(x / HALF);
    let right = x % HALF;
    for (const key of this.keys) {
      const next = (left ^ (mix32(right ^ key) & MASK)) >>> 0;
      left = right;
      right = next;
    }
    return left * HALF + right;
  }

  /** The index-th number of the permutation (0 <= index < 9e9). */
  payload(index: number): number {
    if (!Number.isInteger(index) || index < 0 || index >= DOMAIN) throw new RangeError('NC index out of range');
    let x = index;
    do x = this.encrypt(x);
    while (x >= DOMAIN); // cycle walking keeps the map a bijection on [0, DOMAIN)
    return x;
  }

  ncNumber(index: number): string {
    const payload = String(1_000_000_000 + this.payload(index));
    return payload + String(luhnCheckDigit(payload));
  }
}
