// Runs async work one at a time per key, within this process. The sign-in throttle uses it so that a burst of
// parallel attempts for one account (or from one address) is counted one after another instead of all reading
// "not locked yet" at once. Waiting costs memory only: no database connection is held while queued.
const tails = new Map<string, Promise<void>>();

export async function serializeByKey<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = tails.get(key) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => done);
  tails.set(key, tail);
  try {
    await previous;
    return await work();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}
