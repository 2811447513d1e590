// How alike two patient records are (issue 24 item 1, decision 046): field by field, each comparison falls into an
// agreement level with a weight, log2 of how much likelier that level is for two records of one person than for two
// people (Fellegi-Sunter); the score is the sum. Pure: the phonetic codes come with the records from the database.
import type { MatchAgreement, MatchBand, MatchField, MatchReason } from '../../../contracts/duplicates';
import { foldAccents, lowerLetters, nameWords, normalizeName } from '../patients/name-normalize';
import { osaDistance, trigrams, trigramSetSimilarAtLeast, type Trigrams } from '../patients/search-scoring';

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
  grams: Trigrams;
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
  if (distance <= 2 || trigramSetSimilarAtLeast(fa.grams, fb.grams, 0.5)) return 'similar';
  return 'different';
}

type DateAgreement = keyof (typeof WEIGHTS)['dateOfBirth'];

/**
 * Dates of birth (YYYY-MM-DD): equal, day and month swapped, a year apart, one digit off (or two neighbouring digits
 * swapped), a day apart, or different.
 */
export function compareDates(a: string | null, b: string | null): DateAgreement {
  if (!a || !b) return 'missing';
  if (a === b) return 'exact';
  // Both are YYYY-MM-DD: compared by position, without splitting or parsing (a run compares millions of pairs).
  const ya = a.slice(0, 4);
  const ma = a.slice(5, 7);
  const da = a.slice(8, 10);
  const yb = b.slice(0, 4);
  const mb = b.slice(5, 7);
  const db = b.slice(8, 10);
  if (ya === yb && ma === db && da === mb) return 'dayMonthSwapped';
  if (ma === mb && da === db && Math.abs(Number(ya) - Number(yb)) === 1) return 'yearOff';
  let differing = 0;
  let first = -1;
  for (let i = 0; i < a.length; i++)
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      differing++;
      if (first < 0) first = i;
    }
  if (differing === 1) return 'oneDigit';
  // Two neighbouring digits typed the wrong way round (1987 for 1978): one slip, scored as one digit off (issue 26 item 8).
  if (differing === 2 && a[first] === b[first + 1] && a[first + 1] === b[first]) return 'oneDigit';
  const days = Math.abs(Date.UTC(+ya, +ma - 1, +da) - Date.UTC(+yb, +mb - 1, +db)) / 86_400_000;
  return days === 1 ? 'dayApart' : 'different';
}

interface Place {
  folded: string;
  town: string | null;
  region: string | null;
  grams: Trigrams;
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
  if (pa.folded === pb.folded || trigramSetSimilarAtLeast(pa.grams, pb.grams, 0.8)) return 'address';
  if (pa.town && pa.town === pb.town) return 'town';
  if (pa.region && pa.region === pb.region) return 'region';
  return 'different';
}

const phoneDigits = memo((phone: string) => phone.replace(/\D+/g, '').replace(/^264/, '0').replace(/^0+/, ''));
const digits = (phone: string | null) => (phone ? phoneDigits(phone) : '');

export interface PairScore {
  score: number;
  reasons: MatchReason[];
}

const reason = (field: MatchField, agreement: MatchAgreement, weight: number): MatchReason => ({ field, agreement, weight });
const sum = (rs: readonly MatchReason[]) => rs.reduce((s, r) => s + r.weight, 0);

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
  const swapCounts = swappedFirst !== 'missing' || swappedLast !== 'missing';
  return swapCounts && sum(swapped) > sum(straight) ? swapped : straight;
}

/** The most the names can add: both agreeing exactly (names swapped weigh less, by WEIGHTS.namesSwapped). */
const NAMES_AT_MOST = WEIGHTS.firstName.exact + WEIGHTS.lastName.exact;

/**
 * Whether a pair whose dates of birth disagree entirely ('different') can still reach `floor`: with the default
 * weights it cannot (every other field agreeing adds at most NAMES_AT_MOST + sex + address + phone, less than the
 * date's penalty leaves room for), so the registry-wide run lets the database drop such candidates before reading them.
 */
export function differentDatesCanReach(floor: number): boolean {
  const rest = NAMES_AT_MOST + WEIGHTS.sex.same + WEIGHTS.place.address + WEIGHTS.contactNumber.same;
  return WEIGHTS.dateOfBirth.different + rest >= floor;
}

/**
 * The score of a pair and its reasons, field by field (names, date of birth, sex, place, contact number). With `floor`,
 * null as soon as the pair cannot reach it: the cheapest fields are compared first (date of birth, sex, phone), then
 * the place, and the names (most of the cost) only while their best agreement could still lift the pair to `floor`.
 * The registry-wide run passes the "possible" threshold: most candidates sharing a blocking key were born in another
 * month or year, and are dropped before their address and names are compared.
 */
export function scorePair(a: MatchPerson, b: MatchPerson): PairScore;
export function scorePair(a: MatchPerson, b: MatchPerson, floor: number): PairScore | null;
export function scorePair(a: MatchPerson, b: MatchPerson, floor = -Infinity): PairScore | null {
  const dob = compareDates(a.dateOfBirth, b.dateOfBirth);
  const born = reason('dateOfBirth', dob, WEIGHTS.dateOfBirth[dob]);
  const sex = a.sex && b.sex ? (a.sex === b.sex ? 'same' : 'different') : null;
  const sexReason = sex ? [reason('sex', sex, WEIGHTS.sex[sex])] : [];
  const phoneA = digits(a.contactNumber);
  const phone =
    phoneA.length >= 7 && phoneA === digits(b.contactNumber) ? [reason('contactNumber', 'same', WEIGHTS.contactNumber.same)] : [];
  const cheap = born.weight + sum(sexReason) + sum(phone);
  if (cheap + WEIGHTS.place.address + NAMES_AT_MOST < floor) return null;
  const place = comparePlaces(a.address, b.address);
  const placeReason = reason('place', place, WEIGHTS.place[place]);
  if (cheap + placeReason.weight + NAMES_AT_MOST < floor) return null;
  const reasons = [...scoreNames(a, b), born, ...sexReason, placeReason, ...phone];
  const score = Math.round(sum(reasons) * 100) / 100;
  return score < floor ? null : { score, reasons };
}

export function bandOf(score: number, thresholds: Thresholds): MatchBand | null {
  if (score >= thresholds.veryLikely) return 'very-likely';
  if (score >= thresholds.possible) return 'possible';
  return null;
}
