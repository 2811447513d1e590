// Journey (issue 21 item 18): the first visit of the sign-in pages, /login and /patient-login, with an empty cache on a
// phone. Not a stopwatch: what the page fetches. The budget is "usable within 3 s at 400 kbit/s": 3 s at 51,200 bytes a
// second (400 x 1024 bits) less four round trips of 150 ms (the connection, the page, the files it names, the first
// answers) leaves 2.4 s, 122,880 bytes for everything the page fetches before its form works (document, scripts,
// stylesheet, translations, API answers, with their headers, compressed as the server sends them). Every one of
// those requests must be named by the page itself (its HTML), so none waits for a script to download and run first;
// an API answer the page preloads is used by the app, not fetched twice. Nothing of the signed-in screens, of the
// other sign-in page, or of another language is fetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { browserAvailable, launchBrowser, screenshot } from './support/browser';
import { createFirstAdmin } from './support/fixtures';
import { startApp, type RunningApp } from './support/server';

const run = browserAvailable();

const BYTES_PER_SECOND = (400 * 1024) / 8;
const BUDGET_BYTES = (3 - 4 * 0.15) * BYTES_PER_SECOND;

interface Fetched {
  url: string;
  type: string;
  initiator: string;
  bytes: number;
}

/**
 * Screens and code a sign-in page never needs before its form is used (chunk names from the build: [name]-[hash].js):
 * the signed-in screens, the other sign-in screens, and the schema library (zod's chunks are named for its modules).
 */
const NOT_FOR_SIGN_IN =
  /\/(dashboard-screen|patient-record|patient-search|patient-area|admin-area|audit-area|profile-area|portal-screen|setup-screen|second-factor-step|registration-form|patient-activate-screen|zod|schemas)-[^/]*\.js$/;

describe.skipIf(!run)('first visit of the sign-in pages on a phone', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    app = await startApp();
    await createFirstAdmin(app.baseUrl);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  /** Opens `path` in a fresh phone context in `locale`: every request until the form is usable and the page has settled. */
  async function firstVisit(path: string, locale: string, submit: string, name: string): Promise<Fetched[]> {
    const context = await browser.newContext({ locale, viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true });
    try {
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      const requests = new Map<string, Fetched>();
      cdp.on('Network.requestWillBeSent', (e) => {
        requests.set(e.requestId, { url: e.request.url, type: e.type ?? 'Other', initiator: e.initiator.type, bytes: 0 });
      });
      cdp.on('Network.loadingFinished', (e) => {
        const r = requests.get(e.requestId);
        if (r) r.bytes = e.encodedDataLength;
      });
      await page.goto(`${app.baseUrl}${path}`);
      // Usable: the form's submit button on screen with its text in the page's language (so its translations are in).
      await page.getByRole('button', { name: submit, exact: true }).waitFor({ state: 'visible' });
      // Then whatever the page would fetch next on its own (an answer whose body nobody reads keeps the network busy, so
      // not "network idle"): the load event and a second more.
      await page.waitForLoadState('load');
      await page.waitForTimeout(1000);
      await screenshot(page, name);
      return [...requests.values()].filter((r) => !r.url.startsWith('data:'));
    } finally {
      await context.close();
    }
  }

  const cases = [
    { path: '/login', locale: 'en-GB', lang: 'en', submit: 'Sign In', others: ['af', 'ng'], notHere: /\/patient-login-screen-/ },
    { path: '/patient-login', locale: 'af-ZA', lang: 'af', submit: 'Sien my rekords', others: ['en', 'ng'], notHere: /\/login-screen-/ },
  ];

  for (const c of cases) {
    it(`${c.path} (${c.lang}): within ${BUDGET_BYTES} bytes, every request named by the page, nothing it does not need`, async () => {
      const fetched = await firstVisit(c.path, c.locale, c.submit, `first-load-375${c.path.replace('/', '-')}-${c.lang}`);
      const summary = fetched.map(
        (r) => `${r.initiator.padEnd(7)} ${String(r.bytes).padStart(7)} ${r.type.padEnd(10)} ${r.url.replace(app.baseUrl, '')}`,
      );
      const total = fetched.reduce((sum, r) => sum + r.bytes, 0);
      expect(total, summary.join('\n')).toBeLessThanOrEqual(BUDGET_BYTES);
      // Named by the page: the document's parser (its script, stylesheet and preloads), nothing a script asked for.
      const late = fetched.filter((r) => r.type !== 'Document' && r.initiator !== 'parser');
      expect(
        late.map((r) => `${r.initiator} ${r.url.replace(app.baseUrl, '')}`),
        summary.join('\n'),
      ).toEqual([]);
      // A preloaded answer is the app's answer: each URL once.
      const urls = fetched.map((r) => r.url);
      expect(
        urls.filter((u, i) => urls.indexOf(u) !== i),
        summary.join('\n'),
      ).toEqual([]);
      expect(urls.filter((u) => NOT_FOR_SIGN_IN.test(u) || c.notHere.test(u))).toEqual([]);
      for (const other of c.others) expect(urls.filter((u) => u.includes(`/locale-${other}-`))).toEqual([]);
      expect(urls.some((u) => u.includes(`/locale-${c.lang}-core-`))).toBe(true);
    });
  }
});
