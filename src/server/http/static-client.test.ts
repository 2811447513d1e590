// The built client as the real app serves it (issue 21 item 18): hashed assets are cached for a year without the
// document headers (CSP and the rest of helmet's), pre-compressed when the browser accepts it; the page itself,
// for every app route, keeps its CSP and is never cached.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';

const SCRIPT = 'console.log("nhr");\n'.repeat(50);
let t: TestApp;
let clientDir: string;

beforeAll(async () => {
  clientDir = mkdtempSync(path.join(tmpdir(), 'nhr-static-client-'));
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(
    path.join(clientDir, 'index.html'),
    '<!doctype html><html lang="en"><head><title>NHR</title></head><body><script type="module" src="/assets/index-AbC123.js"></script></body></html>',
  );
  for (const lang of ['en', 'af', 'ng'])
    for (const name of ['core', 'staff', 'privacy', 'record', 'portal'])
      writeFileSync(path.join(clientDir, 'assets', `locale-${lang}-${name}-X${lang}9.js`), 'export default {};');
  // What the build writes (vite.config.ts): the chunks of each lazily loaded module.
  writeFileSync(
    path.join(clientDir, 'route-chunks.json'),
    JSON.stringify({
      modules: {
        'features/portal/components/patient-login-screen.tsx': ['assets/patient-login-screen-P1.js', 'assets/page-card-S1.js'],
        'app/dashboard-screen.tsx': ['assets/dashboard-screen-D1.js', 'assets/page-card-S1.js'],
        'features/record/components/patient-record.tsx': ['assets/patient-record-R1.js'],
        'app/admin-area.tsx': ['assets/admin-area-A1.js'],
        'features/portal/components/portal-screen.tsx': ['assets/portal-screen-O1.js'],
        'features/record/kinds/index.ts': ['assets/kinds-K1.js'],
        'features/record/components/immunization-status.tsx': ['assets/immunization-status-I1.js', 'assets/kinds-K1.js'],
      },
    }),
  );
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.js'), SCRIPT);
  writeFileSync(path.join(clientDir, 'assets', 'index-AbC123.js.br'), brotliCompressSync(SCRIPT));
  t = await createTestApp({ clientDir });
});
afterAll(async () => {
  await t?.close();
  if (clientDir) rmSync(clientDir, { recursive: true, force: true });
});

describe('the built client', () => {
  it('serves a hashed asset immutable for a year, without the document headers, keeping nosniff', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    for (const header of [
      'content-security-policy',
      'strict-transport-security',
      'x-frame-options',
      'referrer-policy',
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ]) {
      expect(res.headers[header], header).toBeUndefined();
    }
  });

  it('serves the uncompressed asset to a client that accepts no encoding', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'identity' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(SCRIPT);
  });

  it('serves the page for app routes with its CSP and frame policy, never cached', async () => {
    for (const url of ['/login', '/', '/patient-portal', '/?patient=1']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it("comes in the reader's language with its core translations preloaded: the chosen language's cookie, then Accept-Language, then English", async () => {
    const page = async (headers: Record<string, string>) => {
      const res = await t.app.inject({ method: 'GET', url: '/login', headers: { 'accept-encoding': 'br', ...headers } });
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers.vary).toContain('Cookie');
      return brotliDecompressSync(res.rawPayload).toString();
    };
    const preloads = (html: string) => [...html.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]);
    const af = await page({ cookie: 'language=af', 'accept-language': 'ng, en;q=0.5' });
    expect(af).toContain('<html lang="af">');
    expect(preloads(af)).toEqual(['/assets/locale-af-core-Xaf9.js']);
    const ng = await page({ 'accept-language': 'de-DE, ng;q=0.8, en;q=0.5' });
    expect(ng).toContain('<html lang="ng">');
    expect(preloads(ng)).toEqual(['/assets/locale-ng-core-Xng9.js']);
    for (const headers of [{}, { cookie: 'language=xx', 'accept-language': 'fr' }] as Record<string, string>[]) {
      const en = await page(headers);
      expect(en).toContain('<html lang="en">');
      expect(preloads(en)).toEqual(['/assets/locale-en-core-Xen9.js']);
    }
    const plain = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'identity', 'accept-language': 'af' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toContain('locale-af-core-Xaf9.js');
  });

  it("preloads a route's screen, its translations and the first answers with the page: the patient's pages always, the signed-in screens only with a session cookie", async () => {
    const links = async (url: string, cookie?: string) => {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'af', ...(cookie ? { cookie } : {}) } });
      expect(res.statusCode, url).toBe(200);
      return {
        modules: [...res.body.matchAll(/rel="modulepreload" crossorigin href="([^"]+)"/g)].map((m) => m[1]),
        fetches: [...res.body.matchAll(/rel="preload" as="fetch" crossorigin="use-credentials" href="([^"]+)"/g)].map((m) => m[1]),
      };
    };
    expect(await links('/patient-login')).toEqual({
      modules: [
        '/assets/locale-af-core-Xaf9.js',
        '/assets/locale-af-portal-Xaf9.js',
        '/assets/patient-login-screen-P1.js',
        '/assets/page-card-S1.js',
      ],
      fetches: ['/api/setup/status'],
    });
    // Signed out, the staff pages are the sign-in page: nothing of the dashboard.
    for (const url of ['/login', '/', '/?patient=7', '/admin']) {
      expect(await links(url), url).toEqual({
        modules: ['/assets/locale-af-core-Xaf9.js'],
        fetches: ['/api/setup/status', '/api/auth/user'],
      });
    }
    expect(await links('/login', 'nhr_sid=abc')).toEqual(await links('/login'));
    expect((await links('/', 'nhr_sid=abc')).modules).toEqual([
      '/assets/locale-af-core-Xaf9.js',
      '/assets/locale-af-staff-Xaf9.js',
      '/assets/locale-af-privacy-Xaf9.js',
      '/assets/dashboard-screen-D1.js',
      '/assets/page-card-S1.js',
    ]);
    expect((await links('/?patient=7', 'nhr_sid=abc')).modules).toEqual([
      '/assets/locale-af-core-Xaf9.js',
      '/assets/locale-af-staff-Xaf9.js',
      '/assets/locale-af-privacy-Xaf9.js',
      '/assets/locale-af-record-Xaf9.js',
      '/assets/dashboard-screen-D1.js',
      '/assets/page-card-S1.js',
      '/assets/patient-record-R1.js',
    ]);
    // The portal without a session is its sign-in page; with one, the portal's translations (and no staff screen).
    expect(await links('/patient-portal')).toEqual(await links('/patient-login'));
    const portal = await links('/patient-portal', 'nhr_sid=abc');
    // Its screen and the record kinds' lists; the vaccines tab's schedule card loads when that tab is shown.
    expect(portal.modules).toEqual([
      '/assets/locale-af-core-Xaf9.js',
      '/assets/locale-af-portal-Xaf9.js',
      '/assets/locale-af-privacy-Xaf9.js',
      '/assets/locale-af-record-Xaf9.js',
      '/assets/portal-screen-O1.js',
      '/assets/kinds-K1.js',
    ]);
    expect(portal.fetches).toEqual(['/api/setup/status']);
  });

  it('keeps the document headers on the API', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
