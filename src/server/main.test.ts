// The real server process: starts on its port with migrations applied, serves, and exits cleanly on SIGTERM.
import { describe, expect, it } from 'vitest';
import { startApp } from '../../e2e/support/server';

describe('server process', () => {
  it('answers while running and exits with code 0 on SIGTERM', async () => {
    const app = await startApp();
    const health = await fetch(`${app.baseUrl}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok', database: true, medicineChecks: { available: true } });
    expect(await app.stop()).toBe(0);
  }, 90_000);
});
