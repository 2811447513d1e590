// Each flag of the privacy review at its edges (docs/decisions/018-privacy-review.md), through the real app: grants,
// searches and sign-ins are made through the API, and the flags read back from GET /api/privacy-reviews.
// Thresholds are small here (configuration), so N-1, N and N+1 are cheap to reach.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BreakGlassAccess, FlagCode } from '../../../contracts/privacy-review';
import { breakGlass, insertPatientAt, searchById, signInFrom, staffFrom, WINDHOEK, withConsent } from '../../test/privacy-fixtures';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { DEFAULT_PRIVACY_THRESHOLDS, loadConfig } from '../../config';

const N = 3; // every threshold below
let t: TestApp;
let auditor: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ privacy: { grantsPerHour: N, newIpSearches: N, bulkSearchPatients: N, bulkSearchMinutes: 10 } });
  auditor = (await signInAs(t, 6)).cookie;
  admin = (await signInAs(t, 2)).cookie;
});
afterAll(async () => {
  await t?.close();
});

/** The queue entries of one user (newest first). */
async function accessesOf(userId: string): Promise<BreakGlassAccess[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/privacy-reviews?status=all&userId=${userId}&pageSize=100`,
    headers: { cookie: auditor },
  });
  expect(res.statusCode).toBe(200);
  return res.json().items;
}
const codes = (a: BreakGlassAccess | undefined): FlagCode[] => (a?.flags ?? []).map((f) => f.code);
const newest = async (userId: string): Promise<BreakGlassAccess> => (await accessesOf(userId))[0]!;

describe('thresholds come from configuration', () => {
  it('default to 10 grants an hour, 20 searches after a new address, 50 patients in 10 minutes', () => {
    expect(loadConfig({}).privacy).toEqual(DEFAULT_PRIVACY_THRESHOLDS);
    expect(DEFAULT_PRIVACY_THRESHOLDS).toEqual({ grantsPerHour: 10, newIpSearches: 20, bulkSearchPatients: 50, bulkSearchMinutes: 10 });
  });

  it('are read from the environment and refuse nonsense', () => {
    const env = {
      PRIVACY_GRANTS_PER_HOUR: '4',
      PRIVACY_NEW_IP_SEARCHES: '7',
      PRIVACY_BULK_SEARCH_PATIENTS: '30',
      PRIVACY_BULK_SEARCH_MINUTES: '5',
    };
    expect(loadConfig(env).privacy).toEqual({ grantsPerHour: 4, newIpSearches: 7, bulkSearchPatients: 30, bulkSearchMinutes: 5 });
    for (const bad of ['0', '-1', '2.5', 'ten']) {
      expect(() => loadConfig({ PRIVACY_GRANTS_PER_HOUR: bad })).toThrow(/PRIVACY_GRANTS_PER_HOUR/);
    }
  });
});

describe('GRANT_RATE: more than N access confirmations by one user within an hour', () => {
  /** A new paramedic confirms `count` accesses (consent for all but the last, which breaks the glass). */
  async function grants(count: number): Promise<BreakGlassAccess> {
    const user = await staffFrom(t.app, t.db, { facility: 'Emed' });
    for (let i = 0; i < count - 1; i++) await withConsent(t.app, user.cookie, (await insertPatientAt(t.db, 'Nghipandulwa', WINDHOEK)).id);
    await breakGlass(t.app, user.cookie, (await insertPatientAt(t.db, 'Nghipandulwa', WINDHOEK)).id);
    return newest(user.id);
  }

  it('N-1 and N grants are not flagged', async () => {
    expect(codes(await grants(N - 1))).not.toContain('GRANT_RATE');
    expect(codes(await grants(N))).not.toContain('GRANT_RATE');
  });

  it('N+1 grants flag the access, with the count and the threshold', async () => {
    const access = await grants(N + 1);
    expect(access.flags).toContainEqual({ code: 'GRANT_RATE', details: { count: N + 1, threshold: N } });
  });
});

describe("SAME_SURNAME and SAME_ADDRESS: the patient shares the user's surname or home address", () => {
  it('flags the same surname, ignoring case and accents, and not a different or longer one', async () => {
    const user = await staffFrom(t.app, t.db, { lastName: 'Kotzé', facility: 'Emed' });
    const same = await insertPatientAt(t.db, 'KOTZE', WINDHOEK);
    await breakGlass(t.app, user.cookie, same.id);
    expect(codes(await newest(user.id))).toEqual(['SAME_SURNAME']);
    for (const other of ['Kotz', 'Kotze-Shilongo', 'Shikongo']) {
      await breakGlass(t.app, user.cookie, (await insertPatientAt(t.db, other, WINDHOEK)).id);
      expect(codes(await newest(user.id)), other).not.toContain('SAME_SURNAME');
    }
  });

  it('flags a patient at the address the user gave in their profile, and not one next door', async () => {
    const user = await staffFrom(t.app, t.db, { lastName: 'Amukoto', facility: 'Emed' });
    const profile = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}`,
      headers: { cookie: user.cookie },
      payload: {
        firstName: 'Test',
        lastName: 'Amukoto',
        email: user.email,
        department: 'Emergency',
        facility: 'Emed',
        address: '7 Uhland Street, Windhoek, Khomas',
      },
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().address).toBe('7 Uhland Street, Windhoek, Khomas');
    await breakGlass(t.app, user.cookie, (await insertPatientAt(t.db, 'Nangolo', '7  uhland street, WINDHOEK, Khomas')).id);
    expect(codes(await newest(user.id))).toEqual(['SAME_ADDRESS']);
    await breakGlass(t.app, user.cookie, (await insertPatientAt(t.db, 'Nangolo', '9 Uhland Street, Windhoek, Khomas')).id);
    expect(codes(await newest(user.id))).toEqual([]);
  });

  it('never flags a user without an address', async () => {
    const user = await staffFrom(t.app, t.db, { lastName: 'Iipumbu', facility: 'Emed' });
    await breakGlass(t.app, user.cookie, (await insertPatientAt(t.db, 'Nangolo', '')).id);
    expect(codes(await newest(user.id))).toEqual([]);
  });
});

describe("OUT_OF_REGION: the patient lives in another region than the user's facility serves", () => {
  it('flags an Oshakati paramedic opening a Windhoek patient, with both regions', async () => {
    const user = await staffFrom(t.app, t.db, { facility: 'Oshakati State Hospital' });
    await breakGlass(t.app, user.cookie, (await insertPatientAt(t.db, 'Haufiku', WINDHOEK)).id);
    expect((await newest(user.id)).flags).toEqual([{ code: 'OUT_OF_REGION', details: { userRegion: 'Oshana', patientRegion: 'Khomas' } }]);
  });

  it('does not flag a patient of the same region, an address without a region, or a service with national reach', async () => {
    const oshakati = await staffFrom(t.app, t.db, { facility: 'Oshakati State Hospital' });
    await breakGlass(t.app, oshakati.cookie, (await insertPatientAt(t.db, 'Haufiku', '14 Nangolo Street, Ondangwa, oshana region')).id);
    expect(codes(await newest(oshakati.id))).toEqual([]);
    await breakGlass(t.app, oshakati.cookie, (await insertPatientAt(t.db, 'Haufiku', 'Plot 12')).id);
    expect(codes(await newest(oshakati.id))).toEqual([]);
    const rescue = await staffFrom(t.app, t.db, { facility: 'Emed' });
    await breakGlass(t.app, rescue.cookie, (await insertPatientAt(t.db, 'Haufiku', '3 Main Road, Katima Mulilo, Zambezi')).id);
    expect(codes(await newest(rescue.id))).toEqual([]);
  });
});

describe('RESTRICTED_RECORD: the record is marked VIP/restricted by an administrator', () => {
  it('flags accesses while the marker is set, and not after it is cleared', async () => {
    const user = await staffFrom(t.app, t.db, { facility: 'Emed' });
    const vip = await insertPatientAt(t.db, 'Geingob', WINDHOEK);
    const mark = (restricted: boolean) =>
      t.app.inject({ method: 'PUT', url: `/api/patients/${vip.id}/restricted`, headers: { cookie: admin }, payload: { restricted } });
    expect((await mark(true)).json()).toEqual({ id: vip.id, restricted: true });
    await breakGlass(t.app, user.cookie, vip.id);
    const flagged = await newest(user.id);
    expect(codes(flagged)).toEqual(['RESTRICTED_RECORD']);
    expect(flagged.patient).toMatchObject({ id: vip.id, restricted: true });
    expect((await mark(false)).statusCode).toBe(200);
    expect(codes(await newest(user.id))).toEqual([]);
  });
});

describe('NEW_IP_SEARCHES: a session begun from a new address runs more than N searches', () => {
  /** A user signed in once from 10.1.0.1, now signed in from `ip`, searching `searches` times before breaking the glass. */
  async function session(ip: string, searches: number): Promise<BreakGlassAccess> {
    const user = await staffFrom(t.app, t.db, { facility: 'Emed' }, '10.1.0.1');
    const cookie = await signInFrom(t.app, user.email, ip);
    const patient = await insertPatientAt(t.db, 'Shilongo', WINDHOEK);
    for (let i = 0; i < searches; i++) await searchById(t.app, cookie, patient.idNumber);
    await breakGlass(t.app, cookie, patient.id);
    return newest(user.id);
  }

  it('N-1 and N searches after a new address are not flagged', async () => {
    expect(codes(await session('10.2.0.1', N - 1))).toEqual([]);
    expect(codes(await session('10.2.0.2', N))).toEqual([]);
  });

  it('N+1 searches after a new address are flagged, with the address and the count', async () => {
    const access = await session('10.2.0.3', N + 1);
    expect(access.flags).toEqual([{ code: 'NEW_IP_SEARCHES', details: { ip: '10.2.0.3', count: N + 1, threshold: N } }]);
  });

  it('N+1 searches from an address the user signed in from before are not flagged', async () => {
    expect(codes(await session('10.1.0.1', N + 1))).toEqual([]);
  });
});

describe("BULK_SEARCH: the user's searches around the access return more than N distinct patients", () => {
  async function searchesFor(distinct: number, repeatFirst = 0): Promise<BreakGlassAccess> {
    const user = await staffFrom(t.app, t.db, { facility: 'Emed' }, '10.3.0.1');
    // Sign in again from the same address, so the session is not from a new address.
    const cookie = await signInFrom(t.app, user.email, '10.3.0.1');
    const found = [];
    for (let i = 0; i < distinct; i++) found.push(await insertPatientAt(t.db, 'Mbumba', WINDHOEK));
    for (const p of found) await searchById(t.app, cookie, p.idNumber);
    for (let i = 0; i < repeatFirst; i++) await searchById(t.app, cookie, found[0]!.idNumber);
    await breakGlass(t.app, cookie, found[0]!.id);
    return newest(user.id);
  }

  it('N-1 and N distinct patients are not flagged, however often they are searched', async () => {
    expect(codes(await searchesFor(N - 1))).toEqual([]);
    expect(codes(await searchesFor(N, 5))).toEqual([]);
  });

  it('N+1 distinct patients are flagged, with the count, threshold and window', async () => {
    const access = await searchesFor(N + 1);
    expect(access.flags).toEqual([{ code: 'BULK_SEARCH', details: { count: N + 1, threshold: N, minutes: 10 } }]);
  });
});

describe('flags together', () => {
  it('lists every flag that applies, each with its own reason', async () => {
    const user = await staffFrom(t.app, t.db, { lastName: 'Nujoma', facility: 'Rundu State Hospital' });
    const vip = await insertPatientAt(t.db, 'Nujoma', WINDHOEK);
    await t.app.inject({
      method: 'PUT',
      url: `/api/patients/${vip.id}/restricted`,
      headers: { cookie: admin },
      payload: { restricted: true },
    });
    await breakGlass(t.app, user.cookie, vip.id);
    expect(codes(await newest(user.id))).toEqual(['SAME_SURNAME', 'OUT_OF_REGION', 'RESTRICTED_RECORD']);
  });
});
