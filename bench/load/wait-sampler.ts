// What the database's sessions wait on during a level (issue 29 item 2): every SAMPLE_MS, the active backends of the
// benchmark's database from pg_stat_activity, each counted under its wait event (or "CPU" when it waits on nothing);
// a backend waiting on a heavyweight lock is counted under the lock's type and the relation it is on (pg_locks: a
// row lock's waiter holds a tuple lock on the relation while it waits for the holder's transaction id).
// Sampling runs on the benchmark's own pool (idle while the HTTP level runs), not in the server's pools it measures.
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/server/db/client';

const SAMPLE_MS = 20;

export interface WaitProfile {
  samples: number;
  /** Per wait ("CPU", "Lock:tuple on audit_chain_head", "LWLock:WALWrite", "Client:ClientRead"...), the share of backend samples. */
  waits: { wait: string; backends: number; share: number }[];
}

interface Row {
  wait: string;
  n: number;
}

/** Starts sampling the backends of `database` (its name); stop() ends it and returns the profile. */
export function waitSampler(db: Db, database: string): { stop(): Promise<WaitProfile> } {
  const counts = new Map<string, number>();
  let samples = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = Date.now();
      const result = (await db.execute(sql`
        SELECT CASE
                 WHEN a.wait_event_type IS NULL THEN 'CPU'
                 WHEN a.wait_event_type = 'Lock' THEN 'Lock:' || a.wait_event || coalesce(' on ' || (
                   SELECT string_agg(DISTINCT c.relname, ',') FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
                    WHERE l.pid = a.pid AND (l.locktype = 'tuple' OR NOT l.granted)), '')
                 ELSE a.wait_event_type || ':' || a.wait_event
               END AS wait,
               count(*)::int AS n
          FROM pg_stat_activity a
         WHERE a.datname = ${database} AND a.state = 'active' AND a.pid <> pg_backend_pid()
         GROUP BY 1`)) as unknown as { rows: Row[] };
      samples++;
      for (const r of result.rows) counts.set(r.wait, (counts.get(r.wait) ?? 0) + r.n);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, SAMPLE_MS - (Date.now() - started))));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      const total = [...counts.values()].reduce((s, n) => s + n, 0) || 1;
      const waits = [...counts.entries()]
        .map(([wait, n]) => ({ wait, backends: Math.round((n / samples) * 100) / 100, share: Math.round((n / total) * 1000) / 10 }))
        .sort((a, b) => b.backends - a.backends);
      return { samples, waits };
    },
  };
}
