import { describe, expect, it } from 'vitest';
import { patientSearchInput } from '../../../../contracts/patients';
import { searchPayload, withoutEmpty, type SearchForm } from './search';
import { apiErrorOf } from '../../../lib/api-error';
import { mapSearchError } from './search-errors';

const blank: SearchForm = {
  method: 'name-dob',
  lastName: '',
  dateOfBirth: '',
  idNumber: '',
  firstName: '',
  smartLastName: '',
  address: '',
  ageRangeMin: '',
  ageRangeMax: '',
};

describe('search payloads (SPEC §5, §7)', () => {
  it('drops empty, null and undefined fields', () => {
    expect(withoutEmpty({ a: '', b: null, c: undefined, d: 0, e: 'x' })).toEqual({ d: 0, e: 'x' });
  });
  it('sends only the chosen method’s fields', () => {
    expect(searchPayload({ ...blank, lastName: ' Nghipondoka ', dateOfBirth: '1980-04-12', idNumber: '123' })).toEqual({
      method: 'name-dob',
      lastName: 'Nghipondoka',
      dateOfBirth: '1980-04-12',
    });
    expect(searchPayload({ ...blank, method: 'id-number', idNumber: '12345678903', lastName: 'x' })).toEqual({
      method: 'id-number',
      idNumber: '12345678903',
    });
  });
  it('joins the fuzzy names into fullName and sends the address and ages as numbers', () => {
    const payload = searchPayload({
      ...blank,
      method: 'fuzzy-name',
      firstName: 'Ndapewa',
      smartLastName: '',
      address: 'Oshakati',
      ageRangeMin: '0',
      ageRangeMax: '150',
    });
    expect(payload).toEqual({ method: 'fuzzy-name', fullName: 'Ndapewa', address: 'Oshakati', ageRangeMin: 0, ageRangeMax: 150 });
    expect(patientSearchInput.safeParse(payload).success).toBe(true);
  });
  it('fails validation without a name or address, or with min > max', () => {
    expect(
      patientSearchInput.safeParse(searchPayload({ ...blank, method: 'fuzzy-name', ageRangeMin: '0', ageRangeMax: '10' })).success,
    ).toBe(false);
    expect(
      patientSearchInput.safeParse(searchPayload({ ...blank, method: 'fuzzy-name', firstName: 'A', ageRangeMin: '20', ageRangeMax: '10' }))
        .success,
    ).toBe(false);
  });
});

describe('search error mapping (SPEC §8)', () => {
  it.each([
    [401, '{"message":"x","code":"UNAUTHENTICATED"}', 'AUTH_EXPIRED', 'high'],
    [403, 'Forbidden', 'PERMISSION_DENIED', 'high'],
    [500, 'boom', 'SERVER_ERROR', 'critical'],
    [429, '{"message":"Too many requests","code":"RATE_LIMITED"}', 'RATE_LIMITED', 'medium'],
    [418, 'teapot', 'UNKNOWN_ERROR', 'medium'],
  ])('%s %s -> %s', async (status, body, code, severity) => {
    const error = await apiErrorOf(new Response(body, { status }));
    expect(error.message).toBe(`${status}: ${body}`);
    expect(mapSearchError(error)).toMatchObject({ code, severity });
  });

  it('maps a network failure to UNKNOWN_ERROR', () => {
    expect(mapSearchError(new TypeError('Failed to fetch'))).toMatchObject({ code: 'UNKNOWN_ERROR', severity: 'medium' });
  });
});
