// npm run bench -- lighthouse [--runs N] [--only login,search,record,portal] [--lighthouse 12.8.2] [--keep DIR]
// Lighthouse mobile performance (issue 21 item 18's budget: at least 90) of the login, search, record and portal pages,
// against the built client served as `npm start` serves it (NODE_ENV=production, scripts/start.ts) on a seeded
// database (PGlite, or PostgreSQL with DATABASE_URL): a doctor signed in (search: the dashboard; record:
// /?patient=<id> of a patient the doctor has confirmed access to) and a patient signed in to the portal. Lighthouse is
// not a dependency of the project: it runs through `npx -y lighthouse@<version>`, attached to a Chromium (CHROME_PATH,
// default /usr/bin/chromium) started for each run. Prints the score and the metrics per page and run, with the load
// average; writes bench/results/lighthouse.json.
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { chromium, type Browser } from 'playwright-core';
import { apiSignIn } from '../e2e/support/fixtures';
import { DOCTOR, PATIENT_PIN, seedPortalJourney, type PortalJourneyData } from '../e2e/support/portal-seed';
import { openDatabase } from '../src/server/db/client';
import { startApp } from '../e2e/support/server';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '2' },
    lighthouse: { type: 'string', default: '12.8.2' },
    only: { type: 'string' },
    keep: { type: 'string' },
  },
});
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS =
  '--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    srv.on('error', reject);
  });
}

async function connectWhenUp(endpoint: string): Promise<Browser> {
  for (let i = 0; ; i++) {
    try {
      return await chromium.connectOverCDP(endpoint);
    } catch (error) {
      if (i >= 50) throw error;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

// PGlite (one process): seeded before the server starts; PostgreSQL (DATABASE_URL): seeded once it runs.
const dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-lighthouse-'));
const onPostgres = Boolean(process.env.DATABASE_URL);
// The doctor signs in with the password alone (their role's second factor made optional in this scratch database):
// the pages measured are the same, and no authenticator is needed.
async function seed(target: { dataDir?: string; databaseUrl?: string }): Promise<PortalJourneyData> {
  const seeded = await seedPortalJourney({ ...target, activated: true });
  const handle = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir ?? 'memory://', poolSize: 1 });
  try {
    await handle.db.execute(sql`UPDATE mfa_role_policy SET policy = 'optional'`);
  } finally {
    await handle.close();
  }
  return seeded;
}
const seedFirst = onPostgres ? undefined : await seed({ dataDir });
const app = await startApp({ DATA_DIR: dataDir, NODE_ENV: 'production' }, 'scripts/start.ts');
const data = seedFirst ?? (await seed({ databaseUrl: app.databaseUrl }));
// --keep DIR keeps each run's full report (DIR/<page>-<run>.json) for its audits (bootup time, long tasks).
const out = values.keep ? path.resolve(values.keep) : mkdtempSync(path.join(tmpdir(), 'nhr-lighthouse-out-'));
mkdirSync(out, { recursive: true });
const rows: Record<string, unknown>[] = [];
try {
  const doctor = await apiSignIn(app.baseUrl, DOCTOR.email, DOCTOR.password);
  if (!doctor.startsWith('nhr_sid=')) throw new Error(`the doctor's sign-in gave no session: ${doctor}`);
  const portal = await fetch(`${app.baseUrl}/api/auth/patient-login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ncNumber: data.patient.ncNumber, dateOfBirth: data.patient.dateOfBirth, pin: PATIENT_PIN }),
  });
  if (portal.status !== 200) throw new Error(`patient login: ${portal.status} ${await portal.text()}`);
  const patientCookie = (portal.headers.get('set-cookie') ?? '').split(';')[0]!;
  const pages = [
    { name: 'login', path: '/login', cookie: '' },
    { name: 'search', path: '/', cookie: doctor },
    { name: 'record', path: `/?patient=${data.patient.id}`, cookie: doctor },
    { name: 'portal', path: '/patient-portal', cookie: patientCookie },
  ].filter((p) => !values.only || values.only.split(',').includes(p.name));
  for (const page of pages) {
    for (let i = 0; i < Number(values.runs); i++) {
      const file = path.join(out, `${page.name}-${i}.json`);
      const load = loadavg()[0]!.toFixed(2);
      // A fresh browser for each run (an empty cache), the page's session put in its cookie jar beforehand (a
      // Cookie header passed to Lighthouse is replaced by the jar's as soon as the page sets its language cookie),
      // and Lighthouse told not to clear storage, which would sign the page out.
      const profile = mkdtempSync(path.join(tmpdir(), 'nhr-lighthouse-chrome-'));
      const port = await freePort();
      const chrome = spawn(
        CHROME,
        [...CHROME_FLAGS.split(' '), `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
        {
          stdio: 'ignore',
        },
      );
      try {
        const cdp = await connectWhenUp(`http://127.0.0.1:${port}`);
        if (page.cookie) {
          const [name = '', value = ''] = page.cookie.split('=');
          await cdp.contexts()[0]!.addCookies([{ name, value, url: app.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
        }
        await cdp.close();
        execFileSync(
          'npx',
          [
            '-y',
            `lighthouse@${values.lighthouse}`,
            `${app.baseUrl}${page.path}`,
            '--only-categories=performance',
            '--output=json',
            `--output-path=${file}`,
            '--quiet',
            `--port=${port}`,
            '--disable-storage-reset',
          ],
          { cwd: tmpdir(), stdio: 'inherit' },
        );
      } finally {
        chrome.kill('SIGTERM');
        await new Promise((r) => {
          if (chrome.exitCode !== null || chrome.signalCode !== null) r(null);
          chrome.once('exit', r);
          setTimeout(r, 5000);
        });
        await new Promise((r) => setTimeout(r, 500));
        try {
          rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
        } catch {
          // a helper still writing its last file: the folder stays in the temporary directory
        }
      }
      const lhr = JSON.parse(readFileSync(file, 'utf8')) as {
        finalDisplayedUrl: string;
        categories: { performance: { score: number } };
        audits: Record<string, { numericValue?: number }>;
      };
      const m = (id: string): number => Math.round(lhr.audits[id]?.numericValue ?? Number.NaN);
      const row = {
        page: page.name,
        run: i + 1,
        score: Math.round(lhr.categories.performance.score * 100),
        fcp: m('first-contentful-paint'),
        lcp: m('largest-contentful-paint'),
        tbt: m('total-blocking-time'),
        cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
        si: m('speed-index'),
        bytes: m('total-byte-weight'),
        finalUrl: lhr.finalDisplayedUrl.replace(app.baseUrl, ''),
        loadBefore: Number(load),
        loadAfter: Number(loadavg()[0]!.toFixed(2)),
      };
      // A page that sent the browser elsewhere (a session that did not work) measured the wrong page.
      if (row.finalUrl !== page.path) throw new Error(`${page.name}: ended on ${row.finalUrl}, not ${page.path}`);
      rows.push(row);
      console.log(JSON.stringify(row));
    }
  }
} finally {
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
  if (!values.keep) rmSync(out, { recursive: true, force: true });
}
console.log('| page | run | score | FCP ms | LCP ms | TBT ms | CLS | SI ms | bytes | load avg |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of rows) {
  console.log(
    `| ${r.page} | ${r.run} | ${r.score} | ${r.fcp} | ${r.lcp} | ${r.tbt} | ${Number(r.cls).toFixed(3)} | ${r.si} | ${r.bytes} | ${r.loadBefore} -> ${r.loadAfter} |`,
  );
}
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/lighthouse.json', `${JSON.stringify(rows, null, 2)}\n`);
