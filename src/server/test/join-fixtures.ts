// Joins for tests (decision 048), made the way production makes them: an open duplicate pair as the matcher stores
// one, the "same person" decision through POST /api/duplicates/{id}/decision by a holder of patients.merge (approved
// by a second one when the join waits for a second reviewer), and undo through POST /api/patient-joins/{id}/undo.
// The join moves what the real join moves: clinical rows, grants, portal sign-ins and passkeys go to the survivor.
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../contracts/constants';
import type { JoinKeep, PatientJoin } from '../../contracts/patient-joins';
import type { Db } from '../db/client';
import { queryOne } from './sql';
import { signInAs } from './staff';
import type { TestApp } from './test-app';

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

export interface TestJoin {
  id: number;
  survivorId: number;
  mergedId: number;
  /** When the join was performed, as the API answers it (ISO). */
  joinedAt: string;
}

/** Two holders of patients.merge per app, signed in once (sign-ins count toward the per-IP limit). */
const reviewers = new WeakMap<TestApp, Promise<[string, string]>>();
function reviewersOf(t: TestApp): Promise<[string, string]> {
  let both = reviewers.get(t);
  if (!both) {
    both = Promise.all([signInAs(t, ROLE_IDS.healthInformationOfficer), signInAs(t, ROLE_IDS.healthInformationOfficer)]).then(
      ([a, b]) => [a.cookie, b.cookie] as [string, string],
    );
    reviewers.set(t, both);
  }
  return both;
}

const post = async (t: TestApp, cookie: string, url: string, payload?: object) => {
  const res = await t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
  if (res.statusCode !== 200) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`);
  return res;
};

/** Joins `mergedId` into `survivorId` through the join API; throws unless the join is performed. */
export async function joinPatients(
  t: TestApp,
  survivorId: number,
  mergedId: number,
  options: { keep?: JoinKeep; reason?: string } = {},
): Promise<TestJoin> {
  const [first, second] = await reviewersOf(t);
  const pairId = await openPair(t.db, survivorId, mergedId);
  const decided = await post(t, first, `/api/duplicates/${pairId}/decision`, { decision: 'same', survivorId, ...options });
  let join = decided.json<{ join: PatientJoin }>().join;
  if (join.status === 'pending') join = (await post(t, second, `/api/patient-joins/${join.id}/approve`)).json<PatientJoin>();
  if (join.status !== 'joined' || !join.joinedAt) throw new Error(`joinPatients: join ${join.id} is ${join.status}`);
  return { id: join.id, survivorId, mergedId, joinedAt: join.joinedAt };
}

/** Undoes the join through the undo API; throws unless it is undone. */
export async function undoJoin(t: TestApp, join: Pick<TestJoin, 'id'>, reason = 'Not the same person'): Promise<PatientJoin> {
  const [first] = await reviewersOf(t);
  const undone = (await post(t, first, `/api/patient-joins/${join.id}/undo`, { reason })).json<PatientJoin>();
  if (undone.status !== 'undone') throw new Error(`undoJoin: join ${join.id} is ${undone.status}`);
  return undone;
}
