// npm run seed -- --patients N [--database-url URL] [--seed S] [--as-of YYYY-MM-DD]
// Synthetic Namibian patients with a few clinical rows each, into an empty patients table. Without --database-url
// it uses DATABASE_URL, else the embedded database in DATA_DIR. The same seed and as-of date give the same data.
import { parseArgs } from 'node:util';
import { isIsoDate, todayIso } from '../src/contracts/ages';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { formatSeconds, ProgressBar } from '../bench/seed/progress';
import { seedPatients } from '../bench/seed/seed-patients';

const { values } = parseArgs({
  options: {
    patients: { type: 'string', default: '1000' },
    'database-url': { type: 'string' },
    seed: { type: 'string', default: '1' },
    'as-of': { type: 'string' },
  },
});

const patients = Number(values.patients);
const seed = Number(values.seed);
const asOf = values['as-of'] ?? todayIso();
if (!Number.isInteger(patients) || patients < 1 || patients > 9_000_000) throw new Error('--patients must be 1..9,000,000');
if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
if (!isIsoDate(asOf)) throw new Error('--as-of must be YYYY-MM-DD');

const config = loadConfig();
const databaseUrl = values['database-url'] ?? config.databaseUrl;
const handle = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { dataDir: config.dataDir });
const started = performance.now();
try {
  await handle.migrate();
  const bar = new ProgressBar(patients, 'patients');
  const report = await seedPatients(handle, databaseUrl, {
    patients,
    seed,
    asOf,
    onProgress: (done) => bar.update(done),
    onPhase: (phase) => phase !== 'load' && process.stderr.write(`${phase}...\n`),
  });
  bar.done(
    `Seeded ${report.patients.toLocaleString('en')} patients and ${report.clinicalRows.toLocaleString('en')} clinical rows ` +
      `into ${handle.kind} in ${formatSeconds((performance.now() - started) / 1000)} (seed ${seed}, as of ${asOf}); ` +
      `phases: ${Object.entries(report.timings).map(([k, v]) => `${k} ${v}s`).join(', ')}`,
  );
} finally {
  await handle.close();
}
