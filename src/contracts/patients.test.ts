import { describe, expect, it } from 'vitest';
import { addPatientInput, patientSearchInput } from './patients';

const issues = (
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
) => {
  const r = schema.safeParse(value);
  return r.success ? [] : r.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('patient search input', () => {
  const fuzzy = { method: 'fuzzy-name', fullName: 'Ndapewa Shikongo', ageRangeMin: 20, ageRangeMax: 40 };

  it('accepts the three methods as the SPEC client sends them, coercing ages', () => {
    expect(patientSearchInput.parse({ method: 'name-dob', lastName: ' Shikongo ', dateOfBirth: '1990-05-10' })).toEqual({
      method: 'name-dob',
      lastName: 'Shikongo',
      dateOfBirth: '1990-05-10',
    });
    expect(patientSearchInput.parse({ method: 'id-number', idNumber: '79927398713' })).toEqual({
      method: 'id-number',
      idNumber: '79927398713',
    });
    expect(patientSearchInput.parse({ ...fuzzy, ageRangeMin: '20', ageRangeMax: '40' })).toMatchObject({
      ageRangeMin: 20,
      ageRangeMax: 40,
    });
    expect(patientSearchInput.parse({ method: 'fuzzy-name', address: 'Oshakati', ageRangeMin: 0, ageRangeMax: 150 })).toMatchObject({
      address: 'Oshakati',
    });
    expect(
      patientSearchInput.parse({ method: 'fuzzy-name', firstName: 'Ndapewa', smartLastName: 'Shikongo', ageRangeMin: 0, ageRangeMax: 0 }),
    ).toMatchObject({ firstName: 'Ndapewa' });
  });

  it('refuses a wrong method with the SPEC overall message', () => {
    expect(issues(patientSearchInput, { method: 'soundex', lastName: 'x' })).toEqual(['method: validation:searchInvalid']);
    expect(issues(patientSearchInput, {})).toEqual(['method: validation:searchInvalid']);
  });

  it('refuses missing fields of the chosen method', () => {
    expect(issues(patientSearchInput, { method: 'name-dob', lastName: 'Shikongo' })).toEqual(['dateOfBirth: validation:searchInvalid']);
    expect(issues(patientSearchInput, { method: 'name-dob', lastName: '  ', dateOfBirth: '1990-02-30' })).toEqual([
      'lastName: validation:searchInvalid',
      'dateOfBirth: validation:searchInvalid',
    ]);
    expect(issues(patientSearchInput, { method: 'fuzzy-name', ageRangeMin: 0, ageRangeMax: 10 })).toEqual([
      'fullName: validation:searchFieldRequired',
    ]);
    expect(issues(patientSearchInput, { method: 'fuzzy-name', fullName: 'Maria' })).toEqual([
      'ageRangeMin: validation:ageRange',
      'ageRangeMax: validation:ageRange',
    ]);
  });

  it('refuses NC numbers that are not 11 digits', () => {
    expect(issues(patientSearchInput, { method: 'id-number', idNumber: '7992739871' })).toEqual(['idNumber: validation:ncNumberLength']);
    expect(issues(patientSearchInput, { method: 'id-number', idNumber: '7992739871a' })).toEqual(['idNumber: validation:ncNumberDigits']);
    expect(issues(patientSearchInput, { method: 'id-number', idNumber: "1' OR 1=1--" })).toEqual(['idNumber: validation:ncNumberDigits']);
  });

  it('refuses ages outside 0-150 and a minimum above the maximum', () => {
    expect(issues(patientSearchInput, { ...fuzzy, ageRangeMin: 41 })).toEqual(['ageRangeMax: validation:ageRangeOrder']);
    expect(issues(patientSearchInput, { ...fuzzy, ageRangeMin: -1 })).toEqual(['ageRangeMin: validation:ageRange']);
    expect(issues(patientSearchInput, { ...fuzzy, ageRangeMax: 151 })).toEqual(['ageRangeMax: validation:ageRange']);
    expect(issues(patientSearchInput, { ...fuzzy, ageRangeMax: 'abc' })).toEqual(['ageRangeMax: validation:ageRange']);
    expect(issues(patientSearchInput, { ...fuzzy, ageRangeMin: 4.2e-200 })).toEqual(['ageRangeMin: validation:ageRange']);
    expect(issues(patientSearchInput, { ...fuzzy, ageRangeMax: 20.5 })).toEqual(['ageRangeMax: validation:ageRange']);
  });

  it('refuses over-long strings and strings without a letter or digit (regex and SQL noise)', () => {
    expect(issues(patientSearchInput, { ...fuzzy, fullName: 'a'.repeat(10_000) })).toEqual(['fullName: validation:tooLong']);
    expect(issues(patientSearchInput, { method: 'name-dob', lastName: 'a'.repeat(101), dateOfBirth: '1990-05-10' })).toEqual([
      'lastName: validation:tooLong',
    ]);
    expect(issues(patientSearchInput, { ...fuzzy, address: 'x'.repeat(201) })).toEqual(['address: validation:tooLong']);
    expect(issues(patientSearchInput, { ...fuzzy, fullName: '.*+?^$()[]{}|\\' })).toEqual(['fullName: validation:searchInvalid']);
    expect(issues(patientSearchInput, { ...fuzzy, fullName: "'; --" })).toEqual(['fullName: validation:searchInvalid']);
  });
});

describe('add patient input', () => {
  const valid = { firstName: 'Ndapewa', lastName: 'Shikongo', sex: 'Female' };

  it('requires first name, last name and sex; defaults the optional fields to empty strings; drops idNumber', () => {
    expect(addPatientInput.parse({ ...valid, idNumber: '12345678903', nextOfKin: null })).toEqual({
      ...valid,
      dateOfBirth: '',
      contactNumber: '',
      address: '',
      nextOfKin: '',
      nextOfKinContact: '',
    });
    expect(issues(addPatientInput, {})).toEqual([
      'firstName: validation:firstNameRequired',
      'lastName: validation:lastNameRequired',
      'sex: validation:sexRequired',
    ]);
    expect(issues(addPatientInput, { ...valid, sex: 'female' })).toEqual(['sex: validation:sexRequired']);
  });

  it('accepts a past date of birth within 150 years only', () => {
    expect(addPatientInput.parse({ ...valid, dateOfBirth: '1990-05-10' }).dateOfBirth).toBe('1990-05-10');
    expect(issues(addPatientInput, { ...valid, dateOfBirth: '2999-01-01' })).toEqual(['dateOfBirth: validation:dateOfBirthInvalid']);
    expect(issues(addPatientInput, { ...valid, dateOfBirth: '1850-01-01' })).toEqual(['dateOfBirth: validation:dateOfBirthInvalid']);
    expect(issues(addPatientInput, { ...valid, dateOfBirth: '10/05/1990' })).toEqual(['dateOfBirth: validation:dateOfBirthInvalid']);
    expect(issues(addPatientInput, { ...valid, dateOfBirth: '1990-13-01' })).toEqual(['dateOfBirth: validation:dateOfBirthInvalid']);
  });

  it('limits every string', () => {
    expect(
      issues(addPatientInput, { ...valid, firstName: 'a'.repeat(10_000), address: 'b'.repeat(201), contactNumber: '1'.repeat(33) }),
    ).toEqual(['firstName: validation:tooLong', 'contactNumber: validation:tooLong', 'address: validation:tooLong']);
  });
});
