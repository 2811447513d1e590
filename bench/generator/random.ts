// Deterministic randomness for the synthetic data: a seeded generator and weighted choices.

/** sfc32, seeded through splitmix32: fast, good enough statistics, same sequence on every machine. */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(...seeds: number[]) {
    let s = 0x9e3779b9;
    for (const x of seeds) s = mix32(s ^ Math.imul(x | 0, 0x85ebca6b));
    this.a = mix32(s + 1);
    this.b = mix32(s + 2);
    this.c = mix32(s + 3);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.next();
  }

  /** A uniform number in [0, 1). */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
}

export function mix32(x: number): number {
  let z = (x + 0x9e3779b9) | 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
  return (z ^ (z >>> 16)) >>> 0;
}

/** Picks items with fixed relative weights in O(log n) (cumulative table, binary search). */
export class WeightedPicker<T> {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(
    readonly items: readonly T[],
    weights: readonly number[],
  ) {
    if (items.length === 0 || items.length !== weights.length) throw new Error('WeightedPicker needs one weight per item');
    this.cumulative = new Float64Array(items.length);
    let sum = 0;
    for (let i = 0; i < items.length; i++) {
      sum += weights[i]!;
      this.cumulative[i] = sum;
    }
    this.total = sum;
  }

  pick(rng: Rng): T {
    const x = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return this.items[lo]!;
  }
}

/** Weights 1/rank^s: the first items of a frequency-ordered list are the most common. */
export function zipfWeights(count: number, exponent: number): number[] {
  return Array.from({ length: count }, (_, i) => 1 / (i + 1) ** exponent);
}

export function zipfPicker<T>(items: readonly T[], exponent: number): WeightedPicker<T> {
  return new WeightedPicker(items, zipfWeights(items.length, exponent));
}
