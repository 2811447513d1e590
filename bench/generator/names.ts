// The name model: language groups with realistic shares, frequency-ranked surnames with a long synthetic tail
// (Oshiwambo, Otjiherero and Khoekhoe surnames are very diverse), given names, compound and hyphenated names.
import {
  AFRIKAANS_GIVEN,
  CHRISTIAN_GIVEN,
  ENGLISH_GIVEN,
  GERMAN_GIVEN,
  OSHIWAMBO_GIVEN,
  OTJIHERERO_GIVEN,
  type GivenNames,
} from '../data/first-names';
import {
  AFRIKAANS_SURNAMES,
  ENGLISH_SURNAMES,
  GERMAN_SURNAMES,
  KHOEKHOE_SURNAMES,
  OSHIWAMBO_SURNAMES,
  OTJIHERERO_SURNAMES,
} from '../data/surnames';
import { Rng, WeightedPicker, zipfPicker } from './random';

export type Group = 'oshiwambo' | 'otjiherero' | 'khoekhoe' | 'afrikaans' | 'german' | 'english';
export type PatientSex = 'Male' | 'Female' | 'Other';

/** Approximate shares of the population by home language group. */
export const GROUP_SHARES: Record<Group, number> = {
  oshiwambo: 0.5,
  otjiherero: 0.09,
  khoekhoe: 0.11,
  afrikaans: 0.19,
  german: 0.03,
  english: 0.08,
};

interface SyllableModel {
  prefixes: readonly string[];
  syllables: readonly string[];
  endings: readonly string[];
}

const TAILS: Partial<Record<Group, SyllableModel & { count: number; share: number }>> = {
  oshiwambo: {
    count: 40_000,
    share: 0.55,
    prefixes: [
      'Shi',
      'Sha',
      'Nghi',
      'Nge',
      'Ha',
      'Hai',
      'Ka',
      'Kaa',
      'Amu',
      'A',
      'Na',
      'Nam',
      'Nda',
      'Ii',
      'Uu',
      'Ne',
      'Ya',
      'Mu',
      'E',
      'Ni',
    ],
    syllables: [
      'ko',
      'ngo',
      'pa',
      'nda',
      'lu',
      'mbo',
      'twe',
      'pu',
      'mbu',
      'la',
      'ka',
      'nge',
      'shi',
      'nde',
      'dja',
      'ku',
      'ngu',
      'mwe',
      'fi',
      'di',
      'lo',
      'ha',
      'ya',
      'ti',
      'me',
      'no',
      'ndu',
      'mba',
      'yo',
      'wa',
      'ye',
      'li',
      'ke',
      'mo',
      'po',
      'nya',
      'kwa',
      'ngwe',
      'mbi',
      'dhi',
      'thi',
      'lwa',
      'fa',
      'sho',
      'shu',
      'ne',
      'pe',
      'to',
      'tu',
      'na',
      'ma',
      'nga',
      'ndi',
      'ho',
      'hu',
      'si',
      'wo',
    ],
    endings: ['', '', '', 'o', 'a', 'e', 'ni', 'ngo', 'nda', 'lwa', 'wa', 'ko', 'ye', 'ma'],
  },
  otjiherero: {
    count: 8_000,
    share: 0.45,
    prefixes: ['Tji', 'Ka', 'Kau', 'Ua', 'Ve', 'Mu', 'Ha', 'Ze', 'Ngu', 'Kat', 'Mba'],
    syllables: [
      'rua',
      'ngu',
      've',
      'ka',
      'mbu',
      'ze',
      'ri',
      'tu',
      'ndja',
      'ue',
      'ta',
      'huu',
      'ko',
      'mbo',
      'ra',
      'ja',
      'ku',
      'pi',
      'vi',
      'ro',
      'kua',
      'tji',
      'hi',
      'na',
      'ndo',
    ],
    endings: ['', '', 'a', 'e', 'i', 'o', 'ua', 'ue'],
  },
  khoekhoe: {
    count: 5_000,
    share: 0.35,
    prefixes: [
      'Gao',
      'Hoe',
      'Gari',
      'Awa',
      'Naru',
      'Goa',
      'Gei',
      'Tsu',
      'Hao',
      'Ga',
      'Khao',
      'Ei',
      'Guri',
      'Ui',
      'Sei',
      'Ochu',
      'Nawa',
      'Gawe',
      '!Na',
      '//Ho',
      'Kha',
      'ǂGa',
    ],
    syllables: ['se', 'ri', 'na', 'ro', 'go', 'ga', 'xa', 'ra', 'ma', 'ha', 'ta'],
    endings: ['b', 'eb', 'ab', 'seb', 'rab', 'gub'],
  },
};

function synthesizeTail(model: SyllableModel & { count: number }, exclude: Set<string>, seed: number): string[] {
  const rng = new Rng(seed, 7919);
  const out = new Set<string>();
  let guard = 0;
  while (out.size < model.count && guard++ < model.count * 50) {
    let name = rng.pick(model.prefixes);
    const syllables = rng.chance(0.55) ? 1 : 2;
    for (let i = 0; i < syllables; i++) name += rng.pick(model.syllables);
    name += rng.pick(model.endings);
    const lower = name.toLowerCase();
    if (name.length < 4 || exclude.has(lower) || out.has(name)) continue;
    out.add(name);
  }
  return [...out];
}

interface GroupModel {
  surnames: WeightedPicker<string>;
  givenFemale: WeightedPicker<string>;
  givenMale: WeightedPicker<string>;
  /** A second given-name list (Oshiwambo families mix Christian and Oshiwambo names). */
  secondFemale: WeightedPicker<string>;
  secondMale: WeightedPicker<string>;
  compoundFirstName: number;
}

const HEADS: Record<Group, readonly string[]> = {
  oshiwambo: OSHIWAMBO_SURNAMES,
  otjiherero: OTJIHERERO_SURNAMES,
  khoekhoe: KHOEKHOE_SURNAMES,
  afrikaans: AFRIKAANS_SURNAMES,
  german: GERMAN_SURNAMES,
  english: ENGLISH_SURNAMES,
};

const GIVEN: Record<Group, [GivenNames, GivenNames]> = {
  oshiwambo: [CHRISTIAN_GIVEN, OSHIWAMBO_GIVEN],
  otjiherero: [CHRISTIAN_GIVEN, OTJIHERERO_GIVEN],
  khoekhoe: [AFRIKAANS_GIVEN, CHRISTIAN_GIVEN],
  afrikaans: [AFRIKAANS_GIVEN, AFRIKAANS_GIVEN],
  german: [GERMAN_GIVEN, GERMAN_GIVEN],
  english: [ENGLISH_GIVEN, AFRIKAANS_GIVEN],
};

const COMPOUND_FIRST: Record<Group, number> = {
  oshiwambo: 0.35,
  otjiherero: 0.3,
  khoekhoe: 0.15,
  afrikaans: 0.3,
  german: 0.2,
  english: 0.15,
};

function mixedGiven(a: readonly string[], b: readonly string[], exponent: number): WeightedPicker<string> {
  // Interleave two frequency-ranked lists so both contribute common names.
  const items: string[] = [];
  const weights: number[] = [];
  a.forEach((n, i) => (items.push(n), weights.push(1 / (i + 1) ** exponent)));
  b.forEach((n, i) => (items.push(n), weights.push(1 / (i + 1) ** exponent)));
  return new WeightedPicker(items, weights);
}

function buildGroup(group: Group): GroupModel {
  const head = HEADS[group];
  const tail = TAILS[group];
  let surnames: WeightedPicker<string>;
  if (tail) {
    const exclude = new Set(head.map((n) => n.toLowerCase()));
    const tailNames = synthesizeTail(tail, exclude, group.length * 101);
    const headScale = (1 - tail.share) / harmonic(head.length, 0.5);
    const tailScale = tail.share / harmonic(tailNames.length, 0.5);
    const headWeights = head.map((_, i) => headScale / (i + 1) ** 0.5);
    const tailWeights = tailNames.map((_, i) => tailScale / (i + 1) ** 0.5);
    surnames = new WeightedPicker([...head, ...tailNames], [...headWeights, ...tailWeights]);
  } else {
    surnames = zipfPicker(head, 0.45);
  }
  const [primary, secondary] = GIVEN[group];
  return {
    surnames,
    givenFemale: mixedGiven(primary.female, secondary === primary ? [] : secondary.female, 0.7),
    givenMale: mixedGiven(primary.male, secondary === primary ? [] : secondary.male, 0.7),
    secondFemale: zipfPicker(secondary.female, 0.5),
    secondMale: zipfPicker(secondary.male, 0.5),
    compoundFirstName: COMPOUND_FIRST[group],
  };
}

function harmonic(n: number, s: number): number {
  let sum = 0;
  for (let i = 1; i <= n; i++) sum += 1 / i ** s;
  return sum;
}

export interface PersonName {
  firstName: string;
  lastName: string;
}

/** Builds names for people of each group; construction is deterministic and independent of the seed. */
export class NameModel {
  private readonly groups = new Map<Group, GroupModel>();
  readonly groupPicker = new WeightedPicker(Object.keys(GROUP_SHARES) as Group[], Object.values(GROUP_SHARES));

  private model(group: Group): GroupModel {
    let m = this.groups.get(group);
    if (!m) this.groups.set(group, (m = buildGroup(group)));
    return m;
  }

  surname(rng: Rng, group: Group, sex: PatientSex): string {
    const name = this.model(group).surnames.pick(rng);
    // Khoekhoe surnames take the feminine ending -s for women (Geingob, Geingos).
    if (group === 'khoekhoe' && sex === 'Female' && name.endsWith('b')) return `${name.slice(0, -1)}s`;
    return name;
  }

  givenName(rng: Rng, group: Group, sex: PatientSex): string {
    const m = this.model(group);
    const female = sex === 'Female' || (sex === 'Other' && rng.chance(0.5));
    const first = (female ? m.givenFemale : m.givenMale).pick(rng);
    if (!rng.chance(m.compoundFirstName)) return first;
    const second = (female ? m.secondFemale : m.secondMale).pick(rng);
    return second === first ? first : `${first} ${second}`;
  }

  person(rng: Rng, group: Group, sex: PatientSex, adult: boolean): PersonName {
    let lastName = this.surname(rng, group, sex);
    // Some married women keep both surnames, hyphenated.
    if (adult && sex === 'Female' && rng.chance(0.06)) {
      const other = this.surname(rng, rng.chance(0.8) ? group : this.groupPicker.pick(rng), sex);
      if (other !== lastName) lastName = `${lastName}-${other}`;
    }
    return { firstName: this.givenName(rng, group, sex), lastName };
  }
}
