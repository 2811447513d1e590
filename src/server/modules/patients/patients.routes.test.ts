// The registry API through the real app: who may search and add, what is audited, and bad input refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { isValidNcNumber } from '../../../contracts/nc-number';
import { ALL_ROLE_IDS, allows } from '../../test/permission-matrix';
import { queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
const cookies = new Map<number, string>();
beforeAll(async () => {
  t = await createTestApp();
  for (const roleId of ALL_ROLE_IDS) cookies.set(roleId, (await signInAs(t, roleId)).cookie);
});
afterAll(async () => {
  await t?.close();
});

const post = (url: string, payload: unknown, roleId: number | null = ROLE_IDS.receptionist) =>
  t.app.inject({ method: 'POST', url, headers: roleId ? { cookie: cookies.get(roleId)! } : {}, payload: payload as object });
const count = async (table: string): Promise<number> =>
  (await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))[0]!.n;

const ndapewa = {
  firstName: 'Ndapewa',
  lastName: 'Nghipondoka',
  sex: 'Female',
  dateOfBirth: '1984-03-09',
  address: '12 Main Road, Oshakati, Oshana',
};

describe('POST /api/admin/patients', () => {
  it('creates the patient with a generated, valid NC number, ignoring any sent, and audits it', async () => {
    const res = await post('/api/admin/patients', { ...ndapewa, idNumber: '11111111111' });
    expect(res.statusCode).toBe(201);
    const patient = res.json();
    expect(patient).toMatchObject({ firstName: 'Ndapewa', lastName: 'Nghipondoka', sex: 'Female', dateOfBirth: '1984-03-09' });
    expect(patient.idNumber).not.toBe('11111111111');
    expect(isValidNcNumber(patient.idNumber)).toBe(true);
    const [row] = await queryRows<{ action: string; patient_id: number }>(
      t.db,
      sql`SELECT action, patient_id FROM audit_logs WHERE resource_type = 'PATIENT' AND action = 'CREATE'`,
    );
    expect(row).toEqual({ action: 'CREATE', patient_id: patient.id });
  });

  it('warns of a likely duplicate with 409 and the matches, and adds it once confirmed', async () => {
    const before = await count('patients');
    const res = await post('/api/admin/patients', { ...ndapewa, firstName: 'Ndapéwa', lastName: 'Nghipondoka' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'DUPLICATE_PATIENT', duplicates: [expect.objectContaining({ lastName: 'Nghipondoka' })] });
    expect(await count('patients')).toBe(before);
    const confirmed = await post('/api/admin/patients', { ...ndapewa, confirmDuplicate: true });
    expect(confirmed.statusCode).toBe(201);
    expect(await count('patients')).toBe(before + 1);
  });

  it.each([
    ['a missing first name', { ...ndapewa, firstName: '' }],
    ['an unknown sex', { ...ndapewa, sex: 'Unknown' }],
    ['a date of birth in the future', { ...ndapewa, dateOfBirth: '2999-01-01' }],
    ['a 10,000-character name', { ...ndapewa, lastName: 'x'.repeat(10_000) }],
    ['a wrong type', { ...ndapewa, firstName: 42 }],
  ])('refuses %s with 400 and adds nothing', async (_name, body) => {
    const before = await count('patients');
    const res = await post('/api/admin/patients', body);
    expect(res.statusCode).toBe(400);
    expect(await count('patients')).toBe(before);
  });

  it.each(ALL_ROLE_IDS)('role %i may add patients only with patients.create', async (roleId) => {
    const res = await post(
      '/api/admin/patients',
      { firstName: 'Role', lastName: `Check${roleId}`, sex: 'Other', confirmDuplicate: true },
      roleId,
    );
    expect(res.statusCode).toBe(allows(roleId, 'patients.create') ? 201 : 403);
  });
});

describe('POST /api/patients/search', () => {
  it('finds by each method and writes one SEARCH row per search, with the criteria and the count', async () => {
    const created = (
      await post('/api/admin/patients', {
        firstName: 'Johannes',
        lastName: 'van der Merwe',
        sex: 'Male',
        dateOfBirth: '1971-07-21',
        address: 'Rundu, Kavango East',
        confirmDuplicate: true,
      })
    ).json();
    const auditsBefore = await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs WHERE action = 'SEARCH'`);
    const byName = await post(
      '/api/patients/search',
      { method: 'name-dob', lastName: 'Van Der Merwe', dateOfBirth: '1971-07-21' },
      ROLE_IDS.doctor,
    );
    expect(byName.json().map((p: { id: number }) => p.id)).toEqual([created.id]);
    const byNc = await post('/api/patients/search', { method: 'id-number', idNumber: created.idNumber }, ROLE_IDS.doctor);
    expect(byNc.json()).toEqual([expect.objectContaining({ id: created.id, idNumber: created.idNumber })]);
    const fuzzy = await post(
      '/api/patients/search',
      { method: 'fuzzy-name', fullName: 'Merwe Johanes', ageRangeMin: 40, ageRangeMax: 80 },
      ROLE_IDS.doctor,
    );
    expect(fuzzy.json()[0]).toMatchObject({ id: created.id, matchReasons: expect.any(Array) });
    const rows = await queryRows<{ n: number; nv: { resultCount: number }; pid: number | null }>(
      t.db,
      sql`SELECT count(*) OVER ()::int AS n, new_values AS nv, patient_id AS pid FROM audit_logs WHERE action = 'SEARCH' ORDER BY id DESC LIMIT 1`,
    );
    expect(rows[0]!.n).toBe(auditsBefore[0]!.n + 3);
    expect(rows[0]!.nv.resultCount).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['an unknown method', { method: 'telepathy' }],
    ['a 10-digit NC number', { method: 'id-number', idNumber: '1234567890' }],
    ['letters in the NC number', { method: 'id-number', idNumber: '1234567890a' }],
    ['min age above max age', { method: 'fuzzy-name', fullName: 'Ana', ageRangeMin: 50, ageRangeMax: 20 }],
    ['an age above 150', { method: 'fuzzy-name', fullName: 'Ana', ageRangeMin: 0, ageRangeMax: 151 }],
    ['a negative age', { method: 'fuzzy-name', fullName: 'Ana', ageRangeMin: -1, ageRangeMax: 20 }],
    ['no name or address', { method: 'fuzzy-name', ageRangeMin: 0, ageRangeMax: 20 }],
    ['a 10,000-character name', { method: 'name-dob', lastName: 'x'.repeat(10_000), dateOfBirth: '1980-01-01' }],
    ['a missing date of birth', { method: 'name-dob', lastName: 'Shikongo' }],
  ])('refuses %s with 400 and audits nothing', async (_name, body) => {
    const before = await count('audit_logs');
    const res = await post('/api/patients/search', body, ROLE_IDS.doctor);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(await count('audit_logs')).toBe(before);
  });

  it.each(["'; DROP TABLE patients; --", '.*', '%_%', '(a|b)+$', '\\\\'])('treats %s as plain text', async (name) => {
    const res = await post(
      '/api/patients/search',
      { method: 'fuzzy-name', fullName: `Ana ${name}`, ageRangeMin: 0, ageRangeMax: 150 },
      ROLE_IDS.doctor,
    );
    expect([200, 400]).toContain(res.statusCode);
    expect(await count('patients')).toBeGreaterThan(0);
  });

  it.each(ALL_ROLE_IDS)('role %i may search only with patients.search', async (roleId) => {
    const res = await post('/api/patients/search', { method: 'id-number', idNumber: '12345678903' }, roleId);
    expect(res.statusCode).toBe(allows(roleId, 'patients.search') ? 200 : 403);
  });

  it('refuses the signed-out with 401', async () => {
    expect((await post('/api/patients/search', { method: 'id-number', idNumber: '12345678903' }, null)).statusCode).toBe(401);
    expect((await post('/api/admin/patients', ndapewa, null)).statusCode).toBe(401);
  });
});
