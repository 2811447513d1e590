// Synthetic patients: name, sex, date of birth (Namibia's young age structure, ages 0-100), NC number, address.
import { addYears } from '../../src/contracts/calendar';
import { REGION_AFFINITY, STREETS, TOWNS, type Town } from '../data/places';
import { NameModel, type Group, type PatientSex } from './names';
import { NcNumberPermutation } from './nc-permutation';
import { Rng, WeightedPicker } from './random';

export interface SyntheticPatient {
  id: number;
  firstName: string;
  lastName: string;
  dateOfBirth: string;
  sex: PatientSex;
  idNumber: string;
  contactNumber: string | null;
  address: string;
  nextOfKin: string;
  nextOfKinContact: string;
  /** Generator-only facts used by the clinical rows. */
  group: Group;
  ageYears: number;
  region: string;
}

const SEX = new WeightedPicker<PatientSex>(['Female', 'Male', 'Other'], [50.5, 49, 0.5]);

/** Relative number of people of each age 0-100: a young population, thinning after 60. */
const AGE = new WeightedPicker(
  Array.from({ length: 101 }, (_, a) => a),
  Array.from({ length: 101 }, (_, a) => (a < 20 ? 1 : a < 60 ? 1 - (a - 20) * 0.017 : Math.max(0.004, 0.32 * Math.exp(-(a - 60) / 9)))),
);

export interface GeneratorOptions {
  seed: number;
  /** The calendar date ages are counted from (YYYY-MM-DD); fixed for reproducible data. */
  asOf: string;
}

export class PatientGenerator {
  readonly names = new NameModel();
  private readonly nc: NcNumberPermutation;
  private readonly towns = new Map<Group, WeightedPicker<Town>>();

  constructor(readonly options: GeneratorOptions) {
    this.nc = new NcNumberPermutation(options.seed);
  }

  private townPicker(group: Group): WeightedPicker<Town> {
    let picker = this.towns.get(group);
    if (!picker) {
      const affinity = REGION_AFFINITY[group] ?? {};
      picker = new WeightedPicker(
        TOWNS,
        TOWNS.map((t) => t.weight * (affinity[t.region] ?? 1)),
      );
      this.towns.set(group, picker);
    }
    return picker;
  }

  /** Patient number `index` (0-based) of this seed; the same index always gives the same patient. */
  patient(index: number, id: number): SyntheticPatient {
    const rng = new Rng(this.options.seed, index);
    const group = this.names.groupPicker.pick(rng);
    const sex = SEX.pick(rng);
    const ageYears = AGE.pick(rng);
    const { firstName, lastName } = this.names.person(rng, group, sex, ageYears >= 20);
    const town = this.townPicker(group).pick(rng);
    const kin = this.names.person(rng, group, rng.chance(0.6) ? 'Female' : 'Male', true);
    return {
      id,
      firstName,
      lastName,
      dateOfBirth: dateOfBirth(rng, ageYears, this.options.asOf),
      sex,
      idNumber: this.nc.ncNumber(index),
      contactNumber: ageYears >= 14 && rng.chance(0.85) ? phone(rng) : null,
      address: address(rng, town),
      nextOfKin: rng.chance(0.9) ? `${kin.firstName} ${rng.chance(0.7) ? lastName : kin.lastName}` : '',
      nextOfKinContact: rng.chance(0.8) ? phone(rng) : '',
      group,
      ageYears,
      region: town.region,
    };
  }
}

function dateOfBirth(rng: Rng, ageYears: number, asOf: string): string {
  // A uniform day in the year of life that gives this age on asOf.
  const latest = new Date(`${addYears(asOf, -ageYears)}T00:00:00Z`);
  latest.setUTCDate(latest.getUTCDate() - rng.int(0, 364));
  return latest.toISOString().slice(0, 10);
}

function phone(rng: Rng): string {
  const prefix = rng.pick(['81', '81', '81', '85', '85', '61', '64', '65']);
  return `+264 ${prefix} ${rng.int(100, 999)} ${rng.int(1000, 9999)}`;
}

function address(rng: Rng, town: Town): string {
  if (town.villages && rng.chance(0.45)) return `${rng.pick(town.villages)} village, ${town.town}, ${town.region}`;
  if (rng.chance(0.25)) return `Erf ${rng.int(1, 9999)}, ${town.town}, ${town.region}`;
  return `${rng.int(1, 250)} ${rng.pick(STREETS)}, ${town.town}, ${town.region}`;
}
