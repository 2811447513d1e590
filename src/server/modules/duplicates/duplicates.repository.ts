// The review queue's statements (decision 046): listing pairs with both patients, recording a decision, and the
// registry-wide run's checkpoint row.
import { sql, type SQL } from 'drizzle-orm';
import type { DuplicatePair, DuplicateQuery, PairStatus } from '../../../contracts/duplicates';
import type { PatientSummary } from '../../../contracts/patients';
import type { DbOrTx } from '../../db/client';
import { rows } from '../patients/search.repository';

/** Tables whose rows name the facility they were recorded at. */
const FACILITY_TABLES = ['diagnoses', 'appointments', 'vaccines', 'lab_results'] as const;

const escapeLike = (v: string) => v.replace(/[\\%_]/g, '\\$&');

function seenAt(patient: SQL, facility: string): SQL {
  return sql.join(
    FACILITY_TABLES.map(
      (t) =>
        sql`EXISTS (SELECT 1 FROM ${sql.identifier(t)} AS f WHERE f.patient_id = ${patient} AND lower(f.facility) = lower(${facility}))`,
    ),
    sql` OR `,
  );
}

const livesIn = (patient: SQL, region: string) =>
  sql`EXISTS (SELECT 1 FROM patients AS r WHERE r.id = ${patient} AND nhr_fold(r.address) LIKE ${`%, ${escapeLike(region.toLowerCase())}`} ESCAPE '\\')`;

interface PairRow {
  id: number;
  score: number;
  band: DuplicatePair['band'];
  reasons: DuplicatePair['reasons'];
  status: PairStatus;
  foundAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
  decisionReason: string | null;
  a: PatientSummary;
  b: PatientSummary;
}

const summary = (alias: string) => {
  const p = sql.raw(alias);
  return sql`json_build_object('id', ${p}.id, 'firstName', ${p}.first_name, 'lastName', ${p}.last_name,
    'dateOfBirth', ${p}.date_of_birth::text, 'idNumber', ${p}.id_number, 'sex', ${p}.sex, 'address', ${p}.address)`;
};

const selectPairs = sql`SELECT d.id, d.score, d.band, d.reasons, d.status, d.found_at AS "foundAt", d.decided_at AS "decidedAt",
               d.decided_by_name AS "decidedBy", d.decision_reason AS "decisionReason", ${summary('a')} AS a, ${summary('b')} AS b
          FROM duplicate_pairs AS d JOIN patients AS a ON a.id = d.patient_a JOIN patients AS b ON b.id = d.patient_b`;

export async function listPairs(db: DbOrTx, q: DuplicateQuery): Promise<{ items: DuplicatePair[]; total: number }> {
  const where: SQL[] = [sql`d.status = ${q.status}`];
  if (q.band) where.push(sql`d.band = ${q.band}`);
  if (q.facility) where.push(sql`(${seenAt(sql`d.patient_a`, q.facility)} OR ${seenAt(sql`d.patient_b`, q.facility)})`);
  if (q.region) where.push(sql`(${livesIn(sql`d.patient_a`, q.region)} OR ${livesIn(sql`d.patient_b`, q.region)})`);
  const condition = sql.join(where, sql` AND `);
  const [{ total } = { total: 0 }] = await rows<{ total: number }>(
    db,
    sql`SELECT count(*)::int AS total FROM duplicate_pairs AS d WHERE ${condition}`,
  );
  const found = await rows<PairRow>(
    db,
    sql`${selectPairs} WHERE ${condition} ORDER BY d.score DESC, d.id LIMIT ${q.pageSize} OFFSET ${(q.page - 1) * q.pageSize}`,
  );
  return { items: found.map(toPair), total };
}

/** One pair as the queue lists it, whatever its status; null when unknown. */
export async function pairById(db: DbOrTx, id: number): Promise<DuplicatePair | null> {
  const [found] = await rows<PairRow>(db, sql`${selectPairs} WHERE d.id = ${id}`);
  return found ? toPair(found) : null;
}

const iso = (v: string | Date | null) => (v === null ? null : new Date(v).toISOString());

function toPair(r: PairRow): DuplicatePair {
  return {
    id: r.id,
    patients: [r.a, r.b],
    score: Number(r.score),
    band: r.band,
    reasons: r.reasons,
    status: r.status,
    foundAt: iso(r.foundAt)!,
    decidedAt: iso(r.decidedAt),
    decidedBy: r.decidedBy,
    decisionReason: r.decisionReason,
  };
}

/** The pair, locked until the transaction ends (two reviewers deciding at once: the second sees the first's decision). */
export async function lockPair(
  db: DbOrTx,
  id: number,
): Promise<{ id: number; status: PairStatus; patientA: number; patientB: number } | null> {
  const [found] = await rows<{ id: number; status: PairStatus; patientA: number; patientB: number }>(
    db,
    sql`SELECT id, status, patient_a AS "patientA", patient_b AS "patientB" FROM duplicate_pairs WHERE id = ${id} FOR UPDATE`,
  );
  return found ?? null;
}

export async function recordDecision(
  db: DbOrTx,
  id: number,
  decision: { status: 'different' | 'skipped'; userId: string; name: string; at: Date; reason: string | null },
): Promise<void> {
  await db.execute(
    sql`UPDATE duplicate_pairs SET status = ${decision.status}, decided_by = ${decision.userId}, decided_by_name = ${decision.name},
               decided_at = ${decision.at}, decision_reason = ${decision.reason}
         WHERE id = ${id}`,
  );
}
