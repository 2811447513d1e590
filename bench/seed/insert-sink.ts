// Embedded-database bulk load: multi-row INSERT statements inside one transaction per batch.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';
import { CLINICAL_COLUMNS, CLINICAL_TABLES, type Cell, type ClinicalRows } from '../generator/clinical';
import { PATIENT_COLUMNS } from './rows';
import type { LoadSink } from './sink';

const MAX_PARAMS = 30_000; // well under PostgreSQL's 65,535 bind parameters per statement

function insertStatements(table: string, columns: readonly string[], rows: readonly Cell[][]): SQL[] {
  const perStatement = Math.max(1, Math.floor(MAX_PARAMS / columns.length));
  const statements: SQL[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const values = rows.slice(i, i + perStatement).map(
      (r) =>
        sql`(${sql.join(
          r.map((v) => sql`${v}`),
          sql`, `,
        )})`,
    );
    statements.push(sql`INSERT INTO ${sql.identifier(table)} (${sql.raw(columns.join(', '))}) VALUES ${sql.join(values, sql`, `)}`);
  }
  return statements;
}

export function openInsertSink(db: Db): LoadSink {
  return {
    async write(patients: Cell[][], clinical: ClinicalRows): Promise<void> {
      await db.transaction(async (tx) => {
        for (const s of insertStatements('patients', PATIENT_COLUMNS, patients)) await tx.execute(s);
        for (const t of CLINICAL_TABLES) {
          for (const s of insertStatements(t, CLINICAL_COLUMNS[t], clinical[t])) await tx.execute(s);
        }
      });
    },
    finish: async () => undefined,
    abort: async () => undefined,
  };
}
