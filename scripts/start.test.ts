// `npm start` on a fresh clone builds the client first; the server's mode must still come only from NODE_ENV
// (issue 10 item 4: the in-process build set production mode, so HSTS, upgrade-insecure-requests and Secure
// cookies were sent over plain http and another PC saw a blank page).
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../e2e/support/server';

describe('npm start on a tree without a built client', () => {
  const clientDir = mkdtempSync(path.join(tmpdir(), 'nhr-client-'));
  let app: RunningApp | undefined;
  afterAll(async () => {
    await app?.stop();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('builds the client, then serves it in development mode when NODE_ENV is unset', async () => {
    app = await startApp({ CLIENT_DIR: clientDir, NODE_ENV: '' }, 'scripts/start.ts');
    expect(existsSync(path.join(clientDir, 'index.html'))).toBe(true);
    const page = await fetch(`${app.baseUrl}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<div id="root"');
    expect(page.headers.get('strict-transport-security')).toBeNull();
    expect(page.headers.get('content-security-policy')).not.toContain('upgrade-insecure-requests');
    const setup = await fetch(`${app.baseUrl}/api/setup/admin`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        firstName: 'Ndapewa',
        lastName: 'Nghipondoka',
        email: 'admin@health.gov.na',
        password: 'correct horse battery',
        confirmPassword: 'correct horse battery',
        facility: 'Windhoek Central Hospital',
        department: 'administration',
      }),
    });
    expect(setup.status).toBe(201);
    const login = await fetch(`${app.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@health.gov.na', password: 'correct horse battery' }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie') ?? '';
    expect(cookie).toContain('nhr_sid=');
    expect(cookie).not.toMatch(/;\\s*Secure/i);
  }, 300_000);
});
