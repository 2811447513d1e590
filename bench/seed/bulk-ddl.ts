// Around a bulk load: set aside the secondary indexes, unique and foreign-key constraints and user triggers of the
// loaded tables (building an index once is much cheaper than maintaining it row by row), then put them back.

/** Runs one SQL statement and returns its rows: a pg client or the app's database. */
export type SqlRunner = (text: string) => Promise<Record<string, unknown>[]>;

export interface SetAside {
  tables: readonly string[];
  /** Statements that recreate what was dropped, in a safe order: unique constraints, indexes, foreign keys. */
  restore: string[];
}

export async function setAsideForBulkLoad(run: SqlRunner, tables: readonly string[]): Promise<SetAside> {
  const list = tables.map((t) => `'${t}'::regclass`).join(', ');
  const indexes = await run(
    `SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def FROM pg_index i
      WHERE indrelid IN (${list}) AND NOT indisprimary
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
      ORDER BY 1`,
  );
  const constraints = await run(
    `SELECT conrelid::regclass::text AS tbl, conname AS name, contype AS type, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE conrelid IN (${list}) AND contype IN ('u', 'f') ORDER BY contype DESC, 1, 2`,
  );
  const restore = [
    ...constraints.filter((c) => c.type === 'u').map((c) => `ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.name}" ${c.def}`),
    ...indexes.map((i) => String(i.def)),
    ...constraints.filter((c) => c.type === 'f').map((c) => `ALTER TABLE ${c.tbl} ADD CONSTRAINT "${c.name}" ${c.def}`),
  ];
  for (const c of [...constraints].reverse()) await run(`ALTER TABLE ${c.tbl} DROP CONSTRAINT "${c.name}"`);
  for (const i of indexes) await run(`DROP INDEX ${i.name}`);
  for (const t of tables) await run(`ALTER TABLE ${t} DISABLE TRIGGER USER`);
  return { tables, restore };
}

/** Recreates what was set aside; `runners` build indexes side by side (one statement per runner at a time). */
export async function restoreAfterBulkLoad(runners: readonly SqlRunner[], setAside: SetAside): Promise<void> {
  const [first] = runners;
  if (!first) throw new Error('restoreAfterBulkLoad needs a runner');
  const uniques = setAside.restore.filter((s) => s.includes(' UNIQUE '));
  const foreignKeys = setAside.restore.filter((s) => s.includes('FOREIGN KEY'));
  const indexes = setAside.restore.filter((s) => !uniques.includes(s) && !foreignKeys.includes(s));
  await inParallel(runners, [...uniques, ...indexes]);
  await inParallel(runners, foreignKeys);
  for (const t of setAside.tables) await first(`ALTER TABLE ${t} ENABLE TRIGGER USER`);
}

async function inParallel(runners: readonly SqlRunner[], statements: readonly string[]): Promise<void> {
  const queue = [...statements];
  await Promise.all(
    runners.map(async (run) => {
      for (let s = queue.shift(); s !== undefined; s = queue.shift()) await run(s);
    }),
  );
}
