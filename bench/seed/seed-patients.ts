// Seeds N synthetic patients with a few clinical rows each, deterministically for a given seed and as-of date.
import pg from 'pg';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/server/db/client';
import { CLINICAL_TABLES, clinicalRows, emptyClinicalRows, type Cell } from '../generator/clinical';
import { isPlanted, plantDuplicate } from '../generator/duplicates';
import { PatientGenerator } from '../generator/people';
import { restoreAfterBulkLoad, setAsideForBulkLoad, type SqlRunner } from './bulk-ddl';
import { openCopySink } from './copy-sink';
import { openInsertSink } from './insert-sink';
import { patientRow } from './rows';
import type { LoadSink } from './sink';

export interface SeedOptions {
  patients: number;
  seed: number;
  /** Ages and clinical dates are computed from this day (YYYY-MM-DD). */
  asOf: string;
  /** The share of patients (0-0.5) that are planted duplicates of earlier ones, recorded in seed_duplicates. */
  duplicates?: number;
  /** Patients generated per batch. */
  batchSize?: number;
  onProgress?: (done: number) => void;
  onPhase?: (phase: string) => void;
}

export interface SeedReport {
  patients: number;
  clinicalRows: number;
  /** Planted duplicates (seed_duplicates). */
  duplicates: number;
  /** Seconds spent per phase. */
  timings: Record<string, number>;
}

/** The database is not empty: nothing was loaded (the message says why). */
export class SeedRefusedError extends Error {
  override name = 'SeedRefusedError';
}

export const LOADED_TABLES = ['patients', ...CLINICAL_TABLES] as const;
/** Derived from patients by the database (migration 0007); rebuilt in one pass after the load. */
const SEARCH_TABLES = ['patient_name_pairs', 'name_words', 'name_word_deletes'] as const;

/** Loads into `handle`; on PostgreSQL `databaseUrl` must name the same database (COPY runs on its own connections). */
export async function seedPatients(handle: DatabaseHandle, databaseUrl: string | undefined, options: SeedOptions): Promise<SeedReport> {
  const timings: Record<string, number> = {};
  const clock = async <T>(phase: string, work: () => Promise<T>): Promise<T> => {
    options.onPhase?.(phase);
    const t0 = performance.now();
    try {
      return await work();
    } finally {
      timings[phase] = Math.round((performance.now() - t0) / 100) / 10;
    }
  };

  const { runners, close } = await openRunners(handle, databaseUrl);
  const [run] = runners as [SqlRunner, ...SqlRunner[]];
  try {
    const [{ n } = { n: 0 }] = (await run('SELECT count(*)::int AS n FROM patients')) as { n: number }[];
    if (n > 0)
      throw new SeedRefusedError(
        `the database already holds ${n.toLocaleString('en')} patients; nothing was changed. Seed an empty database.`,
      );

    const setAside = await setAsideForBulkLoad(run, [...LOADED_TABLES, ...SEARCH_TABLES]);
    let loaded = { clinical: 0, duplicates: 0 };
    try {
      loaded = await clock('load', () => load(handle, databaseUrl, options));
      await clock('search index', () => run('SELECT nhr_rebuild_search_index()'));
    } finally {
      await clock('indexes', () => restoreAfterBulkLoad(runners, setAside));
    }
    await run(`SELECT setval('patients_id_seq', GREATEST((SELECT max(id) FROM patients), 1))`);
    await clock('analyze', async () => {
      for (const t of [...LOADED_TABLES, ...SEARCH_TABLES]) await run(`VACUUM (ANALYZE) ${t}`);
    });
    return { patients: options.patients, clinicalRows: loaded.clinical, duplicates: loaded.duplicates, timings };
  } finally {
    await close();
  }
}

async function load(
  handle: DatabaseHandle,
  databaseUrl: string | undefined,
  options: SeedOptions,
): Promise<{ clinical: number; duplicates: number }> {
  const rate = options.duplicates ?? 0;
  let planted = 0;
  const generator = new PatientGenerator({ seed: options.seed, asOf: options.asOf });
  const sink: LoadSink = databaseUrl ? await openCopySink(databaseUrl) : openInsertSink(handle.db);
  const batchSize = options.batchSize ?? (databaseUrl ? 5_000 : 1_000);
  let clinicalCount = 0;
  try {
    for (let start = 0; start < options.patients; start += batchSize) {
      const end = Math.min(options.patients, start + batchSize);
      const patients: Cell[][] = [];
      const clinical = emptyClinicalRows();
      const truth: [number, number, string][] = [];
      for (let i = start; i < end; i++) {
        let p = generator.patient(i, i + 1);
        if (isPlanted(options.seed, i, rate)) {
          const d = plantDuplicate(generator, i, i + 1, rate);
          p = d.patient;
          truth.push([i + 1, d.originalIndex + 1, d.errors.join(',')]);
        }
        patients.push(patientRow(p));
        clinicalRows(p, options.seed, options.asOf, clinical);
      }
      for (const t of CLINICAL_TABLES) clinicalCount += clinical[t].length;
      await sink.write(patients, clinical);
      if (truth.length > 0) await recordTruth(handle, truth);
      planted += truth.length;
      options.onProgress?.(end);
    }
    await sink.finish();
  } catch (error) {
    await sink.abort();
    throw error;
  }
  return { clinical: clinicalCount, duplicates: planted };
}

/** The planted duplicates of one batch, in the app's connection (the COPY sink is for patients and clinical rows). */
async function recordTruth(handle: DatabaseHandle, truth: readonly [number, number, string][]): Promise<void> {
  await handle.db.execute(
    sql`INSERT INTO seed_duplicates (duplicate_id, original_id, errors)
        SELECT * FROM unnest(${`{${truth.map((t) => t[0]).join(',')}}`}::int[], ${`{${truth.map((t) => t[1]).join(',')}}`}::int[],
                             ${`{${truth.map((t) => `"${t[2]}"`).join(',')}}`}::text[])`,
  );
}

/** Two connections on PostgreSQL (indexes are rebuilt side by side), the app's database on PGlite. */
async function openRunners(
  handle: DatabaseHandle,
  databaseUrl: string | undefined,
): Promise<{ runners: SqlRunner[]; close: () => Promise<void> }> {
  if (!databaseUrl) {
    const run: SqlRunner = async (text) =>
      ((await handle.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows;
    return { runners: [run], close: async () => undefined };
  }
  const clients = await Promise.all(
    [0, 1].map(async () => {
      const c = new pg.Client({ connectionString: databaseUrl });
      await c.connect();
      await c.query("SET maintenance_work_mem = '512MB'");
      return c;
    }),
  );
  return {
    runners: clients.map(
      (c): SqlRunner =>
        async (text) =>
          (await c.query(text)).rows,
    ),
    close: async () => {
      await Promise.all(clients.map((c) => c.end()));
    },
  };
}
