// The matcher's scoring rules, one error type at a time (issue 24 item 1): each realistic slip between two records of
// one person still lands in a band, and two different people with a coincidence do not.
import { describe, expect, it } from 'vitest';
import type { MatchAgreement, MatchField } from '../../../contracts/duplicates';
import { bandOf, compareDates, compareName, comparePlaces, DEFAULT_THRESHOLDS, scorePair, type MatchPerson } from './match-scoring';

const base: MatchPerson = {
  id: 1,
  firstName: 'Ndapewa',
  lastName: 'Nghipondoka',
  firstCodes: ['NTP', 'NTP'],
  lastCodes: ['NKPN', 'NKPN'],
  dateOfBirth: '1984-03-09',
  sex: 'Female',
  address: '12 Independence Avenue, Oshakati, Oshana',
  contactNumber: null,
};
const other = (changes: Partial<MatchPerson>): MatchPerson => ({ ...base, id: 2, ...changes });
const agreement = (p: MatchPerson, field: MatchField): MatchAgreement | undefined =>
  scorePair(base, p).reasons.find((r) => r.field === field)?.agreement;
const band = (p: MatchPerson) => bandOf(scorePair(base, p).score, DEFAULT_THRESHOLDS);

describe('field comparisons', () => {
  it('names: exact, accents, typo, sound-alike, one half of a double name, missing, different', () => {
    expect(compareName('Ndapewa', [], 'Ndapewa', [])).toBe('exact');
    expect(compareName('Ndapéwa', [], 'Ndapewa', [])).toBe('accents');
    expect(compareName('Ndapewa', [], 'Ndapwea', [])).toBe('typo');
    expect(compareName('Kapenda', ['KPNT'], 'Cappendah', ['KPNT'])).toBe('soundsLike');
    expect(compareName('Nghipondoka-Shikongo', [], 'Shikongo', [])).toBe('part');
    expect(compareName('Unknown', [], 'Ndapewa', [])).toBe('missing');
    expect(compareName('Baby of Maria', [], 'Ndapewa', [])).toBe('missing');
    expect(compareName('Johannes', ['JHNS'], 'Ndapewa', ['NTP'])).toBe('different');
  });

  it('dates of birth: exact, day and month swapped, one digit off, a year apart, missing, different', () => {
    expect(compareDates('1984-03-09', '1984-03-09')).toBe('exact');
    expect(compareDates('1984-03-09', '1984-09-03')).toBe('dayMonthSwapped');
    expect(compareDates('1984-03-09', '1984-03-08')).toBe('oneDigit');
    expect(compareDates('1984-03-09', '1983-03-09')).toBe('yearOff');
    expect(compareDates('1984-03-09', null)).toBe('missing');
    expect(compareDates('1984-03-09', '1991-11-23')).toBe('different');
    // Two neighbouring digits swapped is one slip (issue 26 item 8); two digits apart is not.
    expect(compareDates('1978-06-12', '1987-06-12')).toBe('oneDigit');
    expect(compareDates('1984-03-09', '1934-08-09')).toBe('different');
  });

  it('places: the same address, the same town, the same region, elsewhere', () => {
    expect(comparePlaces(base.address, '12 Independence Ave, Oshakati, Oshana')).toBe('address');
    expect(comparePlaces(base.address, 'Erf 40, Oshakati, Oshana')).toBe('town');
    expect(comparePlaces(base.address, 'Erf 40, Ondangwa, Oshana')).toBe('region');
    expect(comparePlaces(base.address, 'Erf 40, Katima Mulilo, Zambezi')).toBe('different');
  });
});

describe('each kind of error between two records of one person', () => {
  it('the same record twice is very likely', () => {
    expect(band(other({}))).toBe('very-likely');
  });

  it.each<[string, Partial<MatchPerson>, MatchField, MatchAgreement]>([
    ['a typo in the first name', { firstName: 'Ndapwea' }, 'firstName', 'typo'],
    ['a typo in the surname', { lastName: 'Nghipondka' }, 'lastName', 'typo'],
    ['a phonetic spelling', { lastName: 'Ngipondoka', lastCodes: ['NKPN'] }, 'lastName', 'typo'],
    ['accents', { firstName: 'Ndapéwa' }, 'firstName', 'accents'],
    ['day and month swapped', { dateOfBirth: '1984-09-03' }, 'dateOfBirth', 'dayMonthSwapped'],
    ['one digit of the date off', { dateOfBirth: '1984-03-19' }, 'dateOfBirth', 'oneDigit'],
    ['the year one off', { dateOfBirth: '1985-03-09' }, 'dateOfBirth', 'yearOff'],
    ['a double surname after marriage', { lastName: 'Nghipondoka-Shikongo' }, 'lastName', 'part'],
    ['another address in the same region', { address: 'Erf 9, Ondangwa, Oshana' }, 'place', 'region'],
  ])('%s: still at least possible, and the reason says how the field agreed', (_label, change, field, how) => {
    const p = other(change);
    expect(agreement(p, field)).toBe(how);
    expect(band(p)).not.toBeNull();
  });

  it('names swapped: the swap is a reason and the pair is very likely', () => {
    const p = other({ firstName: base.lastName, lastName: base.firstName, firstCodes: base.lastCodes, lastCodes: base.firstCodes });
    expect(scorePair(base, p).reasons.map((r) => r.agreement)).toContain('swapped');
    expect(band(p)).toBe('very-likely');
  });

  it('a missing first name with the same surname, date of birth and address: possible', () => {
    const p = other({ firstName: 'Unknown', firstCodes: ['ANKN', 'ANKN'] });
    expect(agreement(p, 'firstName')).toBe('missing');
    expect(band(p)).not.toBeNull();
  });

  it('a married surname: possible at the same address, or elsewhere with the same phone number', () => {
    const married = other({ lastName: 'Shikongo', lastCodes: ['XKNK', 'XKNK'] });
    expect(agreement(married, 'lastName')).toBe('different');
    expect(band(married)).toBe('possible');
    const moved = { ...married, address: 'Erf 40, Katima Mulilo, Zambezi', contactNumber: '+264 81 555 0101' };
    expect(band(moved)).toBeNull();
    expect(bandOf(scorePair({ ...base, contactNumber: '081 555 0101' }, moved).score, DEFAULT_THRESHOLDS)).not.toBeNull();
  });
});

describe('different people', () => {
  it('twins: same surname, birth date and address, another first name, are not very likely', () => {
    expect(band(other({ firstName: 'Johannes', firstCodes: ['JHNS', 'AHNS'], sex: 'Male' }))).toBeNull();
  });

  it('the same common first name on the same day, another surname and town: not proposed', () => {
    expect(band(other({ lastName: 'Shikongo', lastCodes: ['XKNK', 'XKNK'], address: 'Erf 3, Rundu, Kavango East' }))).toBeNull();
  });

  it('the same names born years apart: not proposed', () => {
    expect(band(other({ dateOfBirth: '1961-07-22', address: 'Erf 3, Rundu, Kavango East' }))).toBeNull();
  });
});

describe('a floor (the registry-wide run stops comparing a pair once it cannot reach "possible")', () => {
  it('answers the full score where it reaches the floor and nothing where it does not, over every mix of slips', () => {
    const firsts: Partial<MatchPerson>[] = [
      {},
      { firstName: 'Ndapwea' },
      { firstName: 'Unknown' },
      { firstName: 'Johannes', firstCodes: ['JHNS', 'AHNS'] },
    ];
    const lasts: Partial<MatchPerson>[] = [
      {},
      { lastName: 'Shikongo', lastCodes: ['XKNK', 'XKNK'] },
      { firstName: 'Nghipondoka', lastName: 'Ndapewa' },
    ];
    const dates = ['1984-03-09', '1984-09-03', '1984-03-08', '1983-03-09', '1984-03-10', '1961-07-22', null];
    const places = [base.address, '12 Independence Ave, Oshakati, Oshana', 'Erf 40, Ondangwa, Oshana', 'Erf 3, Rundu, Kavango East', ''];
    const others: Partial<MatchPerson>[] = [{}, { sex: 'Male' }, { sex: '' }, { contactNumber: '081 555 0101' }];
    const a = { ...base, contactNumber: '+264 81 555 0101' };
    let reached = 0;
    let dropped = 0;
    for (const f of firsts)
      for (const l of lasts)
        for (const dateOfBirth of dates)
          for (const address of places)
            for (const o of others) {
              const b = other({ ...f, ...l, dateOfBirth, address, ...o });
              const full = scorePair(a, b);
              for (const floor of [DEFAULT_THRESHOLDS.possible, DEFAULT_THRESHOLDS.veryLikely]) {
                const floored = scorePair(a, b, floor);
                if (full.score >= floor) {
                  expect(floored).toEqual(full);
                  reached++;
                } else {
                  expect(floored).toBeNull();
                  dropped++;
                }
              }
            }
    expect(reached).toBeGreaterThan(50);
    expect(dropped).toBeGreaterThan(50);
  });
});
