// Planted duplicates (issue 24 item 2): a patient registered a second time, at another desk, with the slips real
// registrations make. Each duplicate copies an earlier patient of the seed and makes one error (a quarter of them a
// second one too); which earlier patient, and which errors, are recorded so the match benchmark knows the truth.
import type { SyntheticPatient } from './people';
import { PatientGenerator } from './people';
import { Rng } from './random';

export const DUPLICATE_ERRORS = ['typo', 'phonetic', 'swapped', 'married', 'dayMonth', 'missingFirst', 'address'] as const;
export type DuplicateError = (typeof DUPLICATE_ERRORS)[number];

export interface PlantedDuplicate {
  /** 0-based index of the patient copied. */
  originalIndex: number;
  errors: DuplicateError[];
  patient: SyntheticPatient;
}

const KEYBOARD_NEIGHBOURS: Record<string, string> = {
  a: 'sq',
  e: 'wr',
  i: 'uo',
  o: 'ip',
  u: 'yi',
  n: 'bm',
  m: 'n',
  k: 'jl',
  s: 'ad',
  t: 'ry',
  h: 'gj',
  l: 'k',
  d: 'sf',
  g: 'fh',
  p: 'o',
  r: 'et',
  b: 'vn',
  y: 'tu',
  w: 'qe',
};

/** Spellings the same sound is written with: each rule is tried both ways. */
const PHONETIC: [string, string][] = [
  ['sh', 'sch'],
  ['ph', 'f'],
  ['ck', 'k'],
  ['c', 'k'],
  ['dh', 'th'],
  ['ee', 'i'],
  ['oo', 'u'],
  ['w', 'v'],
  ['y', 'i'],
  ['tj', 'ch'],
  ['ou', 'u'],
  ['ie', 'ei'],
  ['ng', 'nk'],
  ['z', 's'],
];

function typo(rng: Rng, name: string): string {
  if (name.length < 3) return `${name}${name.at(-1)}`;
  const i = rng.int(1, name.length - 1);
  const kind = rng.int(0, 3);
  const c = name[i]!.toLowerCase();
  if (kind === 0) return name.slice(0, i) + name.slice(i + 1);
  if (kind === 1) return name.slice(0, i) + name[i] + name.slice(i);
  if (kind === 2 && i < name.length - 1) return name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2);
  const near = KEYBOARD_NEIGHBOURS[c] ?? 'e';
  return name.slice(0, i) + near[rng.int(0, near.length - 1)] + name.slice(i + 1);
}

function phonetic(rng: Rng, name: string): string {
  const lower = name.toLowerCase();
  const rules = PHONETIC.flatMap(([a, b]) => [
    [a, b],
    [b, a],
  ]).filter(([from]) => lower.includes(from!, 1));
  if (rules.length === 0) {
    // A doubled consonant: Kapena, Kappena.
    const i = [...lower].findIndex((ch, k) => k > 0 && !'aeiou'.includes(ch));
    return i > 0 ? name.slice(0, i) + name[i] + name.slice(i) : `${name}h`;
  }
  const [from, to] = rules[rng.int(0, rules.length - 1)]!;
  const at = lower.indexOf(from!, 1);
  return name.slice(0, at) + to + name.slice(at + from!.length);
}

function swapDayMonth(rng: Rng, dob: string): { dob: string; swapped: boolean } {
  const [y, m, d] = dob.split('-');
  if (Number(d) <= 12 && d !== m) return { dob: `${y}-${d}-${m}`, swapped: true };
  // Not swappable (day above 12): one digit of the day off instead, as a clerk's slip.
  const day = Number(d) >= 28 || (Number(d) > 1 && rng.chance(0.5)) ? Number(d) - 1 : Number(d) + 1;
  return { dob: `${y}-${m}-${String(day).padStart(2, '0')}`, swapped: false };
}

/** Whether patient `index` of the seed is a planted duplicate, at `rate` (0-0.5). Never the first patient. */
export function isPlanted(seed: number, index: number, rate: number): boolean {
  return index > 0 && rate > 0 && new Rng(seed, index, 0xd0b1e).next() < rate;
}

/** Makes patient `index` a duplicate of an earlier patient that is not itself planted, deterministically for the seed. */
export function plantDuplicate(generator: PatientGenerator, index: number, id: number, rate: number): PlantedDuplicate {
  const rng = new Rng(generator.options.seed, index, 0x5eed);
  let originalIndex = rng.int(0, index - 1);
  while (isPlanted(generator.options.seed, originalIndex, rate)) originalIndex = rng.int(0, index - 1);
  const ncNumber = generator.patient(index, id).idNumber;
  const p: SyntheticPatient = { ...generator.patient(originalIndex, id), id, idNumber: ncNumber };
  const first = rng.pick(DUPLICATE_ERRORS);
  const errors: DuplicateError[] = [first];
  if (rng.chance(0.25)) {
    const second = rng.pick(DUPLICATE_ERRORS);
    if (second !== first) errors.push(second);
  }
  for (const error of errors) apply(generator, rng, p, error, index);
  // Another desk: the phone number is often left out or a newer one.
  const phone = rng.next();
  if (phone < 0.3) p.contactNumber = null;
  else if (phone < 0.51) p.contactNumber = generator.patient(rng.int(0, index - 1), id).contactNumber;
  return { originalIndex, errors, patient: p };
}

function apply(generator: PatientGenerator, rng: Rng, p: SyntheticPatient, error: DuplicateError, index: number): void {
  const onFirst = rng.chance(0.5);
  switch (error) {
    case 'typo':
      if (onFirst) p.firstName = typo(rng, p.firstName);
      else p.lastName = typo(rng, p.lastName);
      return;
    case 'phonetic':
      if (onFirst) p.firstName = phonetic(rng, p.firstName);
      else p.lastName = phonetic(rng, p.lastName);
      return;
    case 'swapped':
      [p.firstName, p.lastName] = [p.lastName, p.firstName];
      return;
    case 'married': {
      if (p.sex !== 'Female' || p.ageYears < 18) {
        p.lastName = typo(rng, p.lastName);
        return;
      }
      const other = generator.names.surname(rng, p.group, 'Female');
      p.lastName = rng.chance(0.5) ? other : `${p.lastName}-${other}`;
      return;
    }
    case 'dayMonth':
      p.dateOfBirth = swapDayMonth(rng, p.dateOfBirth).dob;
      return;
    case 'missingFirst':
      p.firstName = rng.chance(0.7) ? 'Unknown' : 'Baby';
      return;
    case 'address':
      p.address = generator.patient(rng.int(0, index - 1), p.id).address;
      return;
  }
}
