// How many server processes `npm start` runs on PostgreSQL: WORKERS, or one per core.

/** WORKERS as a whole number from 1 to 64; empty or unset: `cores`. Anything else is a configuration error. */
export function workerCount(value: string | undefined, cores: number): number {
  if (value === undefined || value.trim() === '') return Math.max(1, cores);
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`WORKERS must be a whole number from 1 to 64, got "${value}"`);
  return n;
}
