// A clock tests move by hand: pass `now` into createTestApp({ now: clock.now }) instead of sleeping.
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
}

export function testClock(start: Date = new Date()): TestClock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance(ms) {
      t += ms;
    },
  };
}
