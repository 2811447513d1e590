// The design the fuzzy search replaced, kept measurable: one trigram query over the whole registry (a GIN index on
// the folded full name), filtered by the date-of-birth range, ordered by similarity. Run with --baseline; it needs
//   CREATE INDEX bench_baseline_fullname_trgm ON patients USING gin (nhr_fold(first_name || ' ' || last_name) gin_trgm_ops);
import { sql } from 'drizzle-orm';
import { dateOfBirthRangeForAges } from '../../src/contracts/ages';
import type { PatientSearchResult } from '../../src/contracts/patients';
import type { Db } from '../../src/server/db/client';
import type { SearchDriver } from './measure';
import type { Target } from './targets';

export const BASELINE_INDEX = 'bench_baseline_fullname_trgm';

export async function baselineIndexExists(db: Db): Promise<boolean> {
  const found = (await db.execute(sql`SELECT 1 FROM pg_indexes WHERE indexname = ${BASELINE_INDEX}`)) as unknown as { rows: unknown[] };
  return found.rows.length > 0;
}

export function trigramBaselineDriver(db: Db, today: string): SearchDriver {
  return {
    name: 'baseline: plain trigram',
    async search(target: Target): Promise<PatientSearchResult[]> {
      const input = target.input;
      if (input.method !== 'fuzzy-name') return [];
      const born = dateOfBirthRangeForAges(input.ageRangeMin, input.ageRangeMax, today);
      const name = input.fullName ?? `${input.firstName ?? ''} ${input.smartLastName ?? ''}`.trim();
      const found = (await db.execute(
        sql`SELECT id FROM patients
             WHERE nhr_fold(first_name || ' ' || last_name) % nhr_fold(${name})
               AND date_of_birth BETWEEN ${born.from}::date AND ${born.to}::date
             ORDER BY similarity(nhr_fold(first_name || ' ' || last_name), nhr_fold(${name})) DESC, id
             LIMIT 50`,
      )) as unknown as { rows: { id: number }[] };
      return found.rows.map((r) => ({ id: r.id, firstName: '', lastName: '', dateOfBirth: null, idNumber: '', sex: '', address: '' }));
    },
  };
}
