// PostgreSQL bulk load: one COPY ... FROM STDIN stream per table, each on its own connection, fed side by side.
import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { CLINICAL_COLUMNS, CLINICAL_TABLES, type Cell, type ClinicalRows, type ClinicalTable } from '../generator/clinical';
import { copyLine, PATIENT_COLUMNS } from './rows';
import type { LoadSink } from './sink';

type CopyStream = ReturnType<typeof copyFrom>;

interface TableStream {
  client: pg.Client;
  stream: CopyStream;
}

async function openCopy(url: string, table: string, columns: readonly string[]): Promise<TableStream> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // The rows are regenerated from the seed if the load is lost, so the commit need not wait for the WAL flush.
  await client.query('SET synchronous_commit = off');
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  return { client, stream };
}

async function send(target: TableStream, rows: readonly Cell[][]): Promise<void> {
  if (rows.length === 0) return;
  let chunk = '';
  for (const r of rows) chunk += copyLine(r);
  if (!target.stream.write(chunk)) await once(target.stream, 'drain');
}

export async function openCopySink(url: string): Promise<LoadSink> {
  const patients = await openCopy(url, 'patients', PATIENT_COLUMNS);
  const clinical = {} as Record<ClinicalTable, TableStream>;
  for (const t of CLINICAL_TABLES) clinical[t] = await openCopy(url, t, CLINICAL_COLUMNS[t]);
  const all = [patients, ...Object.values(clinical)];
  return {
    async write(patientRows: Cell[][], clinicalRows: ClinicalRows): Promise<void> {
      await Promise.all([send(patients, patientRows), ...CLINICAL_TABLES.map((t) => send(clinical[t], clinicalRows[t]))]);
    },
    async finish(): Promise<void> {
      for (const s of all) s.stream.end();
      await Promise.all(all.map((s) => finished(s.stream)));
      await Promise.all(all.map((s) => s.client.end()));
    },
    async abort(): Promise<void> {
      await Promise.all(all.map((s) => s.client.end().catch(() => undefined)));
    },
  };
}
