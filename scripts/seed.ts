// npm run seed -- --patients N [--database-url URL] [--seed S] [--as-of YYYY-MM-DD] [--duplicates RATE]
// --duplicates: the share of patients (0-0.5, default 0) planted as duplicates of earlier ones with realistic errors,
// recorded in seed_duplicates for `npm run bench -- match` (issue 24 item 2).
// Synthetic Namibian patients with a few clinical rows each, into an empty patients table. Without --database-url
// it uses DATABASE_URL, else the embedded database in DATA_DIR. The same seed and as-of date give the same data.
import { parseArgs } from 'node:util';
import { isIsoDate, todayIso } from '../src/contracts/calendar';
import { loadConfig } from '../src/server/config';
import { openDatabase } from '../src/server/db/client';
import { DataDirInUseError } from '../src/server/db/data-dir-lock';
import { formatSeconds, ProgressBar } from '../bench/seed/progress';
import { SeedRefusedError, seedPatients } from '../bench/seed/seed-patients';

const { values } = parseArgs({
  options: {
    patients: { type: 'string', default: '1000' },
    'database-url': { type: 'string' },
    seed: { type: 'string', default: '1' },
    'as-of': { type: 'string' },
    duplicates: { type: 'string', default: '0' },
  },
});

/** A refusal the operator can act on: the message alone, no stack trace. */
function refuse(message: string): never {
  console.error(`seed: ${message}`);
  process.exit(1);
}

const patients = Number(values.patients);
const seed = Number(values.seed);
const asOf = values['as-of'] ?? todayIso();
if (!Number.isInteger(patients) || patients < 1 || patients > 9_000_000) refuse('--patients must be a whole number from 1 to 9,000,000');
if (!Number.isInteger(seed)) refuse('--seed must be a whole number');
const duplicates = Number(values.duplicates);
if (!Number.isFinite(duplicates) || duplicates < 0 || duplicates > 0.5) refuse('--duplicates must be a share from 0 to 0.5 (e.g. 0.02)');
if (!isIsoDate(asOf)) refuse('--as-of must be a date written YYYY-MM-DD');

const config = loadConfig();
const databaseUrl = values['database-url'] ?? config.databaseUrl;
const handle = await openDatabase(databaseUrl ? { databaseUrl, poolSize: 2 } : { dataDir: config.dataDir }).catch((err: unknown) =>
  refuse(err instanceof DataDirInUseError ? err.message : `cannot open the database: ${(err as Error).message}`),
);
const started = performance.now();
let refusal: string | undefined;
try {
  await handle.migrate();
  const bar = new ProgressBar(patients, 'patients');
  const report = await seedPatients(handle, databaseUrl, {
    patients,
    seed,
    asOf,
    duplicates,
    onProgress: (done) => bar.update(done),
    onPhase: (phase) => phase !== 'load' && process.stderr.write(`${phase}...\n`),
  });
  bar.done(
    `Seeded ${report.patients.toLocaleString('en')} patients (${report.duplicates.toLocaleString('en')} planted duplicates) and ${report.clinicalRows.toLocaleString('en')} clinical rows ` +
      `into ${handle.kind} in ${formatSeconds((performance.now() - started) / 1000)} (seed ${seed}, as of ${asOf}); ` +
      `phases: ${Object.entries(report.timings)
        .map(([k, v]) => `${k} ${v}s`)
        .join(', ')}`,
  );
} catch (err) {
  if (!(err instanceof SeedRefusedError)) throw err;
  refusal = err.message;
} finally {
  await handle.close();
}
if (refusal) refuse(refusal);
