// How alike two patient records are (issue 24 item 1, decision 046): field by field, each comparison falls into an
// agreement level with a weight, log2 of how much likelier that level is for two records of one person than for two
// people (Fellegi-Sunter); the score is the sum. Pure: the phonetic codes come with the records from the database.
import type { MatchAgreement, MatchBand, MatchField, MatchReason } from '../../../contracts/duplicates';
import { foldAccents, lowerLetters, nameWords, normalizeName } from '../patients/name-normalize';
import { osaDistance, trigrams, trigramSetSimilarity } from '../patients/search-scoring';

/** What the matcher knows of one patient. `firstCodes`/`lastCodes`: double metaphone (primary, alternate) of the name. */
export interface MatchPerson {
  id: number;
  firstName: string;
  lastName: string;
  firstCodes: readonly string[];
  lastCodes: readonly string[];
  dateOfBirth: string | null;
  sex: string;
  address: string;
  contactNumber: string | null;
}

export interface Thresholds {
  /** From this score a pair is "very likely" one person. */
  veryLikely: number;
  /** From this score (below veryLikely) a pair is "possible". */
  possible: number;
}

/**
 * The weights, tuned against the seeded registry (`npm run bench -- match`). Agreement on a first name, a surname or a
 * date of birth is rare between two people, so it weighs much; a disagreement weighs less than an agreement because
 * true duplicates disagree too (typos, marriage, a clerk's slip). A woman's surname disagreeing weighs less (marriage).
 */
export const WEIGHTS = {
  firstName: { exact: 6, accents: 6, part: 4.5, typo: 4.5, soundsLike: 4, similar: 1.5, missing: 0, different: -4.5 },
  lastName: { exact: 7, accents: 7, part: 5, typo: 5, soundsLike: 4.5, similar: 2, missing: 0, different: -4.5 },
  lastNameDifferentBothWomen: -2,
  namesSwapped: -1,
  dateOfBirth: { exact: 10, dayMonthSwapped: 6, oneDigit: 5.5, dayApart: 5, yearOff: 5, missing: 0, different: -9 },
  sex: { same: 0.5, different: -4 },
  place: { address: 5, town: 1.5, region: 0.5, different: -1, missing: 0 },
  contactNumber: { same: 6 },
} as const;

/** About the score of two identical complete records without a phone number: what a 0-1 score is scaled by. */
export const SCORE_SCALE = 28;

export const DEFAULT_THRESHOLDS: Thresholds = { veryLikely: 26, possible: 18 };

type NameAgreement = keyof (typeof WEIGHTS)['firstName'];

/** Names that stand for no name: a record registered before the name was known. */
const PLACEHOLDERS = new Set(['unknown', 'unk', 'baby', 'infant', 'newborn', 'noname', 'none', 'na', 'nn', 'x', 'xx', 'xxx']);
const PARTICLES = new Set(['van', 'der', 'den', 'de', 'du', 'le', 'la', 'von', 'zu', 'ya', 'da', 'ter', 'te']);

export function isPlaceholderName(name: string): boolean {
  const n = normalizeName(name);
  return n === '' || PLACEHOLDERS.has(n) || n.startsWith('babyof');
}

const wordsOf = (name: string) => nameWords(name).filter((w) => w.length >= 2 && !PARTICLES.has(w));

/**
 * What comparing a string needs, worked out once per distinct string: a registry-wide run compares each record with
 * a dozen others and the same names recur, and redoing the normalizing per pair was most of the run's time. Bounded:
 * emptied when it grows past MEMO_MAX strings.
 */
const MEMO_MAX = 200_000;
function memo<T>(make: (s: string) => T): (s: string) => T {
  const cache = new Map<string, T>();
  return (s) => {
    let v = cache.get(s);
    if (v === undefined) {
      if (cache.size >= MEMO_MAX) cache.clear();
      v = make(s);
      cache.set(s, v);
    }
    return v;
  };
}

interface NameForm {
  placeholder: boolean;
  norm: string;
  lower: string;
  words: string[];
  grams: Set<string>;
}

const nameForm = memo((name: string): NameForm => {
  const norm = normalizeName(name);
  return { placeholder: isPlaceholderName(name), norm, lower: lowerLetters(name), words: wordsOf(name), grams: trigrams(norm) };
});

/** One name against another: the best agreement level that holds. */
export function compareName(a: string, aCodes: readonly string[], b: string, bCodes: readonly string[]): NameAgreement {
  const fa = nameForm(a);
  const fb = nameForm(b);
  if (fa.placeholder || fb.placeholder) return 'missing';
  const na = fa.norm;
  const nb = fb.norm;
  if (na === nb) return fa.lower === fb.lower ? 'exact' : 'accents';
  const wa = fa.words;
  const wb = fb.words;
  if ((wa.length > 1 || wb.length > 1) && (wa.includes(nb) || wb.includes(na) || wa.some((w) => w.length >= 3 && wb.includes(w))))
    return 'part';
  const shorter = Math.min(na.length, nb.length);
  const distance = osaDistance(na, nb, 2);
  if ((distance === 1 && shorter >= 4) || (distance === 2 && shorter >= 8)) return 'typo';
  if (aCodes.some((c) => c !== '' && bCodes.includes(c))) return 'soundsLike';
  if (distance <= 2 || trigramSetSimilarity(fa.grams, fb.grams) >= 0.5) return 'similar';
  return 'different';
}

type DateAgreement = keyof (typeof WEIGHTS)['dateOfBirth'];

/** Dates of birth (YYYY-MM-DD): equal, day and month swapped, a year apart, one digit off, a day apart, or different. */
export function compareDates(a: string | null, b: string | null): DateAgreement {
  if (!a || !b) return 'missing';
  if (a === b) return 'exact';
  const [ya, ma, da] = a.split('-');
  const [yb, mb, db] = b.split('-');
  if (ya === yb && ma === db && da === mb) return 'dayMonthSwapped';
  if (ma === mb && da === db && Math.abs(Number(ya) - Number(yb)) === 1) return 'yearOff';
  const digitsA = a.replace(/-/g, '');
  const digitsB = b.replace(/-/g, '');
  let differing = 0;
  for (let i = 0; i < digitsA.length; i++) if (digitsA[i] !== digitsB[i]) differing++;
  if (differing === 1) return 'oneDigit';
  const days = Math.abs(Date.parse(`${a}T00:00:00Z`) - Date.parse(`${b}T00:00:00Z`)) / 86_400_000;
  return days === 1 ? 'dayApart' : 'different';
}

interface Place {
  folded: string;
  town: string | null;
  region: string | null;
  grams: Set<string>;
}

/** An address written "..., town, region" (the registry's form); the last part alone is taken as the town. */
export const placeOf = memo((address: string): Place => {
  const folded = foldAccents(address).replace(/\s+/g, ' ').trim();
  const parts = folded
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const grams = trigrams(folded);
  if (parts.length >= 3) return { folded, town: parts[parts.length - 2]!, region: parts[parts.length - 1]!, grams };
  return { folded, town: parts[parts.length - 1] ?? null, region: null, grams };
});

export function comparePlaces(a: string, b: string): keyof (typeof WEIGHTS)['place'] {
  const pa = placeOf(a);
  const pb = placeOf(b);
  if (!pa.folded || !pb.folded) return 'missing';
  if (pa.folded === pb.folded || trigramSetSimilarity(pa.grams, pb.grams) >= 0.8) return 'address';
  if (pa.town && pa.town === pb.town) return 'town';
  if (pa.region && pa.region === pb.region) return 'region';
  return 'different';
}

const digits = (phone: string | null) => (phone ?? '').replace(/\D+/g, '').replace(/^264/, '0').replace(/^0+/, '');

export interface PairScore {
  score: number;
  reasons: MatchReason[];
}

const reason = (field: MatchField, agreement: MatchAgreement, weight: number): MatchReason => ({ field, agreement, weight });

function scoreNames(a: MatchPerson, b: MatchPerson): MatchReason[] {
  const bothWomen = a.sex === 'Female' && b.sex === 'Female';
  const last = (agreement: NameAgreement) =>
    reason(
      'lastName',
      agreement,
      agreement === 'different' && bothWomen ? WEIGHTS.lastNameDifferentBothWomen : WEIGHTS.lastName[agreement],
    );
  const straightFirst = compareName(a.firstName, a.firstCodes, b.firstName, b.firstCodes);
  const straight = [
    reason('firstName', straightFirst, WEIGHTS.firstName[straightFirst]),
    last(compareName(a.lastName, a.lastCodes, b.lastName, b.lastCodes)),
  ];
  const swappedFirst = compareName(a.firstName, a.firstCodes, b.lastName, b.lastCodes);
  const swappedLast = compareName(a.lastName, a.lastCodes, b.firstName, b.firstCodes);
  const swapped = [
    reason('firstName', swappedFirst, WEIGHTS.firstName[swappedFirst]),
    reason('lastName', swappedLast, WEIGHTS.lastName[swappedLast]),
    reason('names', 'swapped', WEIGHTS.namesSwapped),
  ];
  const total = (rs: MatchReason[]) => rs.reduce((s, r) => s + r.weight, 0);
  const swapCounts = swappedFirst !== 'missing' || swappedLast !== 'missing';
  return swapCounts && total(swapped) > total(straight) ? swapped : straight;
}

/** The score of a pair and its reasons, field by field (names, date of birth, sex, place, contact number). */
export function scorePair(a: MatchPerson, b: MatchPerson): PairScore {
  const reasons = scoreNames(a, b);
  const dob = compareDates(a.dateOfBirth, b.dateOfBirth);
  reasons.push(reason('dateOfBirth', dob, WEIGHTS.dateOfBirth[dob]));
  if (a.sex && b.sex) {
    const sex = a.sex === b.sex ? 'same' : 'different';
    reasons.push(reason('sex', sex, WEIGHTS.sex[sex]));
  }
  const place = comparePlaces(a.address, b.address);
  reasons.push(reason('place', place, WEIGHTS.place[place]));
  const phoneA = digits(a.contactNumber);
  if (phoneA.length >= 7 && phoneA === digits(b.contactNumber)) reasons.push(reason('contactNumber', 'same', WEIGHTS.contactNumber.same));
  const score = Math.round(reasons.reduce((s, r) => s + r.weight, 0) * 100) / 100;
  return { score, reasons };
}

export function bandOf(score: number, thresholds: Thresholds): MatchBand | null {
  if (score >= thresholds.veryLikely) return 'very-likely';
  if (score >= thresholds.possible) return 'possible';
  return null;
}
