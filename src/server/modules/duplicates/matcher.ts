// The matcher (decision 046): candidate pairs from the blocking keys, scored field by field, kept when they reach
// "possible". One way to score: the registry-wide run, the check of each added or changed patient, and the warning
// at add patient all call scorePair.
import type { MatchBand } from '../../../contracts/duplicates';
import type { Db, DbOrTx } from '../../db/client';
import { bandOf, differentDatesCanReach, scorePair, type MatchPerson, type PairScore, type Thresholds } from './match-scoring';
import {
  candidatePairs,
  candidatesOfNew,
  candidatesOfPatient,
  keepPairs,
  readPeople,
  type NewPerson,
  type ScoredPair,
} from './match.repository';

export interface MatchOutcome {
  compared: number;
  pairs: number;
}

function scored(a: MatchPerson, b: MatchPerson, thresholds: Thresholds): ScoredPair | null {
  const found = scorePair(a, b, thresholds.possible);
  const band = found ? bandOf(found.score, thresholds) : null;
  if (!found || !band) return null;
  const { score, reasons } = found;
  const [lo, hi] = a.id < b.id ? [a, b] : [b, a];
  return { a: lo.id, b: hi.id, score, band, reasons };
}

/** Parts of a chunk whose candidates are read side by side (PostgreSQL serves each on its own connection). */
export const CHUNK_READERS = 2;

/** What scoring a chunk needs from the database: its candidate pairs and the records they name. */
export interface ChunkRead {
  candidates: [number, number][];
  people: Map<number, MatchPerson>;
}

/**
 * Reads one chunk of the registry-wide run: each patient of `ids` against the lower ids sharing a blocking key.
 * Read-only, outside the chunk's writing transaction: the candidates are read in CHUNK_READERS parts at once, each in
 * a read transaction of its own (JIT off there).
 */
export async function readChunk(db: Db, ids: readonly number[], thresholds: Thresholds): Promise<ChunkRead> {
  const datesMustAgree = !differentDatesCanReach(thresholds.possible);
  const size = Math.ceil(ids.length / CHUNK_READERS);
  const parts = Array.from({ length: CHUNK_READERS }, (_, i) => ids.slice(i * size, (i + 1) * size)).filter((p) => p.length > 0);
  const read = await Promise.all(
    parts.map((part) =>
      db.transaction(async (tx) => {
        const { pairs, people } = await candidatePairs(tx, part, { datesMustAgree });
        return { candidates: pairs, people };
      }),
    ),
  );
  return { candidates: read.flatMap((r) => r.candidates), people: new Map(read.flatMap((r) => r.people).map((p) => [p.id, p])) };
}

/** Scores a chunk read: the pairs that reach "possible". */
export function scoreRead({ candidates, people }: ChunkRead, thresholds: Thresholds): { pairs: ScoredPair[]; compared: number } {
  const pairs: ScoredPair[] = [];
  for (const [a, b] of candidates) {
    const pa = people.get(a);
    const pb = people.get(b);
    const pair = pa && pb ? scored(pa, pb, thresholds) : null;
    if (pair) pairs.push(pair);
  }
  return { pairs, compared: candidates.length };
}

/** Stores a chunk's pairs (in the transaction that moves the run's checkpoint past the chunk). */
export async function keepChunk(tx: DbOrTx, ids: readonly number[], pairs: readonly ScoredPair[], now: Date): Promise<void> {
  await keepPairs(tx, pairs, now, { patientB: ids });
}

/** Matches one added or changed patient against the registry (in the add's transaction). */
export async function matchPatient(db: DbOrTx, id: number, thresholds: Thresholds, now: Date): Promise<MatchOutcome> {
  const candidates = await candidatesOfPatient(db, id);
  const people = await readPeople(db, [id, ...candidates]);
  const self = people.find((p) => p.id === id);
  if (!self) return { compared: 0, pairs: 0 };
  const found = people.flatMap((p) => (p.id === id ? [] : [scored(self, p, thresholds)].filter((x): x is ScoredPair => x !== null)));
  await keepPairs(db, found, now, { patient: id });
  return { compared: candidates.length, pairs: found.length };
}

export interface LikelyDuplicate extends PairScore {
  id: number;
  band: MatchBand;
}

/** Stored patients a person about to be added may duplicate, best first (the add-patient warning). */
export async function likelyDuplicatesOf(
  db: DbOrTx,
  person: NewPerson & Pick<MatchPerson, 'sex' | 'address' | 'contactNumber'>,
  thresholds: Thresholds,
): Promise<LikelyDuplicate[]> {
  const { codes, ids } = await candidatesOfNew(db, person);
  const self: MatchPerson = { ...person, id: 0, firstCodes: codes.first, lastCodes: codes.last };
  const out: LikelyDuplicate[] = [];
  for (const p of await readPeople(db, ids)) {
    const s = scorePair(self, p);
    const band = bandOf(s.score, thresholds);
    if (band) out.push({ id: p.id, band, ...s });
  }
  return out.sort((x, y) => y.score - x.score || x.id - y.id);
}
