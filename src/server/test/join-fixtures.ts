// Duplicate pairs for the join tests (decision 048), stored as the matcher stores an open pair.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { queryOne } from './sql';

/** An open "very likely" pair of the two patients (patient_a is the lower id, as the table requires); the matcher's own if it found it. */
export async function openPair(db: Db, a: number, b: number): Promise<number> {
  const [lo, hi] = a < b ? [a, b] : [b, a];
  const row = await queryOne<{ id: number }>(
    db,
    sql`INSERT INTO duplicate_pairs (patient_a, patient_b, score, band, reasons, status, found_at, scored_at)
        VALUES (${lo}, ${hi}, 30, 'very-likely', '[]'::jsonb, 'open', now(), now())
        ON CONFLICT (patient_a, patient_b) DO UPDATE SET status = 'open' RETURNING id`,
  );
  return row!.id;
}
