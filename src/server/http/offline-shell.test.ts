// Offline clinic mode's app shell as the real app serves it (issue 27, decision 061): the service worker, its
// Workbox runtime and the web app manifest are never cached by the browser's HTTP cache (a new build's worker must
// be seen at once), with their own types, and the page's CSP lets this origin's worker and manifest in (and no
// other's).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

let t: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'nhr-offline-shell-'));
  mkdirSync(path.join(clientDir, 'assets'));
  mkdirSync(path.join(clientDir, 'icons'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html lang="en"><head><link rel="manifest" href="/manifest.webmanifest"></head><body></body></html>',
  );
  writeFileSync(path.join(clientDir, 'sw.js'), 'importScripts("/workbox-1a2b3c.js");\n');
  writeFileSync(path.join(clientDir, 'workbox-1a2b3c.js'), 'self.workbox = {};\n');
  writeFileSync(path.join(clientDir, 'manifest.webmanifest'), JSON.stringify({ name: 'National Health Records', start_url: '/' }));
  writeFileSync(path.join(clientDir, 'icons', 'icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestApp({ clientDir });
});
afterAll(async () => {
  await t?.close();
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
});

describe('the offline app shell', () => {
  it('serves the service worker and its runtime as JavaScript, never cached', async () => {
    for (const url of ['/sw.js', '/workbox-1a2b3c.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^(application|text)\/javascript/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('serves the web app manifest with its type, never cached', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.json()).toMatchObject({ name: 'National Health Records' });
  });

  it("lets only this origin's worker and manifest in: the page's CSP", async () => {
    const csp = String((await t.app.inject({ method: 'GET', url: '/login' })).headers['content-security-policy']);
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("script-src 'self'");
  });
});
