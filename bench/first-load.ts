// npm run bench -- first-load [--runs N] [--kbit 400] [--cpu 4]
// How long a first visit to the sign-in pages takes on a slow link (issue 21 item 18: "the login page usable within
// 3 s at 400 kbit/s"): the real server as `npm start` runs it (built client, compression), Debian's Chromium with an
// empty cache, the link throttled through the DevTools protocol (download and upload at --kbit, 150 ms latency) and
// the CPU slowed --cpu times (a modest phone). For /login and /patient-login it reports, per run and as the
// median: the bytes transferred, the requests, first contentful paint, and "usable": the first moment the form's
// submit button is on screen (rendered with its translations, so the form works) and the document has loaded. A
// kbit is 1,024 bits (400 kbit/s: 51,200 bytes a second), as e2e/first-load.e2e.ts's byte budget counts it. Prints
// the load average before and after (the machine is shared). Writes bench/results/first-load.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../e2e/support/browser';
import { createFirstAdmin } from '../e2e/support/fixtures';
import { startApp } from '../e2e/support/server';

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '5' }, kbit: { type: 'string', default: '400' }, cpu: { type: 'string', default: '4' } },
});
const runs = Number(values.runs);
const bytesPerSecond = (Number(values.kbit) * 1024) / 8;
const cpuRate = Number(values.cpu);

const PAGES = [
  { path: '/login', ready: 'button[type=submit]' },
  { path: '/patient-login', ready: 'button[type=submit]' },
];

interface Sample {
  bytes: number;
  requests: number;
  fcpMs: number;
  usableMs: number;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

const loadBefore = loadavg().map((l) => l.toFixed(2));
const app = await startApp({ NODE_ENV: 'production' }, 'scripts/start.ts');
const browser = await launchBrowser();
const results: Record<string, { samples: Sample[]; median: Sample }> = {};
try {
  // Set up as a running installation is (a fresh one shows the first-time setup screen instead of the sign-in
  // page), and one unthrottled visit warms the server.
  await createFirstAdmin(app.baseUrl);
  await (await fetch(`${app.baseUrl}/login`)).text();
  for (const page of PAGES) {
    const samples: Sample[] = [];
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 375, height: 740 }, isMobile: true });
      const tab = await context.newPage();
      const cdp = await context.newCDPSession(tab);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: bytesPerSecond,
        uploadThroughput: bytesPerSecond,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuRate });
      let bytes = 0;
      let requests = 0;
      cdp.on('Network.requestWillBeSent', () => (requests += 1));
      cdp.on('Network.loadingFinished', (e: { encodedDataLength: number }) => (bytes += e.encodedDataLength));
      const started = Date.now();
      await tab.goto(`${app.baseUrl}${page.path}`, { waitUntil: 'commit' });
      await tab.locator(page.ready).first().waitFor({ state: 'visible', timeout: 120_000 });
      await tab.waitForFunction(() => document.readyState === 'complete');
      const usableMs = Date.now() - started;
      const fcpMs = await tab.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN);
      samples.push({ bytes, requests, fcpMs: Math.round(fcpMs), usableMs });
      await context.close();
    }
    results[page.path] = {
      samples,
      median: {
        bytes: median(samples.map((s) => s.bytes)),
        requests: median(samples.map((s) => s.requests)),
        fcpMs: median(samples.map((s) => s.fcpMs)),
        usableMs: median(samples.map((s) => s.usableMs)),
      },
    };
  }
} finally {
  await browser.close();
  await app.stop();
}

const loadAfter = loadavg().map((l) => l.toFixed(2));
console.log(`First visit at ${values.kbit} kbit/s, 150 ms latency, CPU ${cpuRate}x slower; ${runs} runs each, median:`);
console.log(`load average before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}`);
console.log('| page | KB transferred | requests | first contentful paint | usable |');
console.log('|---|---:|---:|---:|---:|');
for (const [path, r] of Object.entries(results)) {
  console.log(
    `| ${path} | ${(r.median.bytes / 1024).toFixed(1)} | ${r.median.requests} | ${(r.median.fcpMs / 1000).toFixed(2)} s | ${(r.median.usableMs / 1000).toFixed(2)} s |`,
  );
}
mkdirSync('bench/results', { recursive: true });
writeFileSync(
  'bench/results/first-load.json',
  `${JSON.stringify({ kbit: Number(values.kbit), latencyMs: 150, cpuRate, runs, loadBefore, loadAfter, results }, null, 2)}\n`,
);
