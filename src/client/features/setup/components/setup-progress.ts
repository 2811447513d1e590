// The simulated progress of SPEC §2: 5 steps of 800 ms, a tick every 50 ms, the redirect 500 ms after 100%.
// It never reaches 100% before the server has answered (DESIGN.md §9).
import { useEffect, useRef, useState } from 'react';

export const SETUP_STEPS = ['initializing', 'security', 'database', 'account', 'finalizing'] as const;
export const STEP_MS = 800;
export const TICK_MS = 50;
export const REDIRECT_DELAY_MS = 500;
const TOTAL_MS = STEP_MS * SETUP_STEPS.length;
/** Where the bar waits while the server has not answered yet. */
const HOLD_PERCENT = 95;

export interface SetupProgress {
  percent: number;
  step: (typeof SETUP_STEPS)[number];
}

/** Runs while `running`; `serverDone` lets it finish. Calls onComplete once, REDIRECT_DELAY_MS after 100%. */
export function useSetupProgress(running: boolean, serverDone: boolean, onComplete: () => void): SetupProgress {
  const [elapsed, setElapsed] = useState(0);
  const done = useRef(onComplete);
  done.current = onComplete;

  useEffect(() => {
    if (!running) {
      setElapsed(0);
      return;
    }
    const timer = setInterval(() => setElapsed((e) => Math.min(e + TICK_MS, TOTAL_MS)), TICK_MS);
    return () => clearInterval(timer);
  }, [running]);

  const raw = (elapsed / TOTAL_MS) * 100;
  const percent = serverDone ? raw : Math.min(raw, HOLD_PERCENT);
  const complete = running && serverDone && elapsed >= TOTAL_MS;

  useEffect(() => {
    if (!complete) return;
    const timer = setTimeout(() => done.current(), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [complete]);

  const stepIndex = Math.min(Math.floor(elapsed / STEP_MS), SETUP_STEPS.length - 1);
  return { percent: Math.round(percent), step: SETUP_STEPS[stepIndex]! };
}
