// The duplicate matcher and review queue through the real API (issue 24 items 1-3): the registry-wide run finds each
// kind of planted duplicate through its blocking keys, resumes where it stopped, a new patient is matched when added,
// "different" is never proposed again, and only holders of patients.merge see or decide anything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { DuplicatePage, ScanProgress } from '../../../contracts/duplicates';
import { ROLE_IDS } from '../../../contracts/constants';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { claimRun, runScan } from './scan-job';

let t: TestApp;
let admin: string;
let officer: string;
let doctor: string;
const people: Record<string, [TestPatient, TestPatient]> = {};
let stranger: TestPatient;

/** Each kind of error between two records of one person (the second of each pair is the slip). */
const PLANTED: Record<string, [Partial<TestPatient>, Partial<TestPatient>]> = {
  typo: [
    { firstName: 'Ndapewa', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' },
    { firstName: 'Ndapwea', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09' },
  ],
  phonetic: [
    { firstName: 'Tangeni', lastName: 'Shikongo', dateOfBirth: '1971-10-02', sex: 'Male' },
    { firstName: 'Tangeni', lastName: 'Schikongo', dateOfBirth: '1971-10-02', sex: 'Male' },
  ],
  swapped: [
    { firstName: 'Hilma', lastName: 'Amutenya', dateOfBirth: '1990-05-21' },
    { firstName: 'Amutenya', lastName: 'Hilma', dateOfBirth: '1990-05-21' },
  ],
  married: [
    { firstName: 'Selma', lastName: 'Iipumbu', dateOfBirth: '1959-02-24' },
    { firstName: 'Selma', lastName: 'Iipumbu-Nangolo', dateOfBirth: '1959-02-24' },
  ],
  dayMonth: [
    { firstName: 'Petrus', lastName: 'Kapenda', dateOfBirth: '1966-04-11', sex: 'Male' },
    { firstName: 'Petrus', lastName: 'Kapenda', dateOfBirth: '1966-11-04', sex: 'Male' },
  ],
  missingFirst: [
    { firstName: 'Josef', lastName: 'Khamanarab', dateOfBirth: '2016-12-22', sex: 'Male' },
    { firstName: 'Unknown', lastName: 'Khamanarab', dateOfBirth: '2016-12-21', sex: 'Male' },
  ],
};

const get = (cookie: string, url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const post = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
const list = async (query = 'status=open&pageSize=100') => (await get(admin, `/api/duplicates?${query}`)).json<DuplicatePage>();
const pairOf = (page: DuplicatePage, a: number, b: number) =>
  page.items.find(
    (p) =>
      p.patients
        .map((x) => x.id)
        .sort((x, y) => x - y)
        .join() === [a, b].sort((x, y) => x - y).join(),
  );
const pairRows = () =>
  queryRows<{ id: number; status: string; score: number }>(t.db, sql`SELECT id, status, score FROM duplicate_pairs ORDER BY id`);

/** Starts or resumes the run and waits until the worker has finished it (the job runs in the background). */
async function scanToEnd(): Promise<ScanProgress> {
  const started = await post(admin, '/api/duplicates/scan');
  expect(started.statusCode).toBe(202);
  for (;;) {
    const progress = (await get(admin, '/api/duplicates/scan')).json<ScanProgress>();
    if (progress.status !== 'running') return progress;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signInAs(t, ROLE_IDS.admin)).cookie;
  officer = (await signInAs(t, ROLE_IDS.healthInformationOfficer)).cookie;
  doctor = (await signInAs(t, ROLE_IDS.doctor)).cookie;
  for (const [kind, [a, b]] of Object.entries(PLANTED)) people[kind] = [await createPatient(t.db, a), await createPatient(t.db, b)];
  // Same surname and birthday as the typo pair, another first name, sex and address: a twin brother, not a duplicate.
  stranger = await createPatient(t.db, { firstName: 'Johannes', lastName: 'Nghipondoka', dateOfBirth: '1984-03-09', sex: 'Male' });
  await t.db.execute(sql`UPDATE patients SET address = 'Erf 3, Rundu, Kavango East', contact_number = NULL WHERE id = ${stranger.id}`);
});
afterAll(async () => {
  await t?.close();
});

describe('the registry-wide run', () => {
  it('resumes where it stopped: a paused run continues from its checkpoint to the end', async () => {
    const run = await claimRun(t.db, 'test-owner', null, new Date());
    expect(await runScan(t.db, run!, 'test-owner', { thresholds: t.config.match, now: () => new Date(), chunkSize: 3, maxChunks: 1 })).toBe(
      'paused',
    );
    const paused = (await get(admin, '/api/duplicates/scan')).json<ScanProgress>();
    expect(paused).toMatchObject({ status: 'paused', done: 3, total: 13 });

    const done = await scanToEnd();
    expect(done).toMatchObject({ status: 'done', done: 13, total: 13 });
    expect((await queryRows<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM duplicate_scans`))[0]!.n).toBe(1);
  });

  it('finds each kind of planted duplicate through the blocking keys, with its score, band and reasons', async () => {
    const page = await list();
    for (const [kind, [a, b]] of Object.entries(people)) {
      const pair = pairOf(page, a.id, b.id);
      expect(pair, kind).toBeDefined();
      expect(pair!.reasons.map((r) => r.field)).toEqual(expect.arrayContaining(['firstName', 'lastName', 'dateOfBirth']));
      expect(pair!.score).toBeGreaterThanOrEqual(t.config.match.possible);
    }
    expect(pairOf(page, people.swapped![0].id, people.swapped![1].id)!.reasons).toContainEqual(
      expect.objectContaining({ agreement: 'swapped' }),
    );
    expect(pairOf(page, people.dayMonth![0].id, people.dayMonth![1].id)!.reasons).toContainEqual(
      expect.objectContaining({ field: 'dateOfBirth', agreement: 'dayMonthSwapped' }),
    );
    expect(pairOf(page, people.typo![0].id, stranger.id)).toBeUndefined();
    expect(page.total).toBe(Object.keys(PLANTED).length);
    // Best first, and the band filter.
    expect(page.items.map((p) => p.score)).toEqual([...page.items.map((p) => p.score)].sort((x, y) => y - x));
    const veryLikely = await list('band=very-likely');
    expect(veryLikely.items.every((p) => p.band === 'very-likely')).toBe(true);
  });

  it('a second run over the same registry changes no pair', async () => {
    const before = await pairRows();
    expect((await scanToEnd()).status).toBe('done');
    expect(await pairRows()).toEqual(before);
  });
});

describe('decisions', () => {
  it('"different" is recorded with who and why, and never proposed again (a new run, an add of either patient)', async () => {
    const [a, b] = people.married!;
    const pair = pairOf(await list(), a.id, b.id)!;
    const res = await post(officer, `/api/duplicates/${pair.id}/decision`, {
      decision: 'different',
      reason: 'Sisters, checked at the desk',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: pair.id, status: 'different' });

    await scanToEnd();
    expect(pairOf(await list(), a.id, b.id)).toBeUndefined();
    const decided = pairOf(await list('status=different'), a.id, b.id)!;
    expect(decided).toMatchObject({ id: pair.id, status: 'different', decisionReason: 'Sisters, checked at the desk' });
    expect(decided.decidedBy).toBeTruthy();

    // The same person added again matches the pair's patients, but the judged pair stays as decided.
    const added = await post(admin, '/api/admin/patients', {
      firstName: 'Selma',
      lastName: 'Iipumbu',
      sex: 'Female',
      dateOfBirth: '1959-02-24',
      address: '12 Independence Avenue, Windhoek, Khomas',
      confirmDuplicate: true,
    });
    expect(added.statusCode).toBe(201);
    expect(pairOf(await list('status=different'), a.id, b.id)).toMatchObject({ status: 'different' });
    expect(pairOf(await list(), a.id, b.id)).toBeUndefined();

    const again = await post(officer, `/api/duplicates/${pair.id}/decision`, { decision: 'skip' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'DUPLICATE_PAIR_DECIDED', status: 'different' });
  });

  it('"skip" moves the pair to the skipped list, from where it can still be decided', async () => {
    const [a, b] = people.phonetic!;
    const pair = pairOf(await list(), a.id, b.id)!;
    expect((await post(admin, `/api/duplicates/${pair.id}/decision`, { decision: 'skip' })).json()).toEqual({
      id: pair.id,
      status: 'skipped',
    });
    expect(pairOf(await list(), a.id, b.id)).toBeUndefined();
    expect(pairOf(await list('status=skipped'), a.id, b.id)).toBeDefined();
    await scanToEnd();
    expect(pairOf(await list('status=skipped'), a.id, b.id)).toBeDefined();
    const decided = await post(admin, `/api/duplicates/${pair.id}/decision`, { decision: 'different', reason: 'Cousins' });
    expect(decided.json()).toEqual({ id: pair.id, status: 'different' });
  });
});

describe('a patient added', () => {
  it('is matched at once: the pair with the registered record is in the queue', async () => {
    const res = await post(admin, '/api/admin/patients', {
      firstName: 'Ndeshipanda',
      lastName: 'Hamutenya',
      sex: 'Female',
      dateOfBirth: '1999-07-14',
      address: 'Erf 12, Oshakati, Oshana',
      confirmDuplicate: true,
    });
    const first = res.json<{ id: number }>().id;
    const second = await post(admin, '/api/admin/patients', {
      firstName: 'Ndeshipanda',
      lastName: 'Hamutenja',
      sex: 'Female',
      dateOfBirth: '1999-07-14',
      address: 'Erf 12, Oshakati, Oshana',
      confirmDuplicate: true,
    });
    expect(second.statusCode).toBe(201);
    const pair = pairOf(await list(), first, second.json<{ id: number }>().id);
    expect(pair).toMatchObject({ band: 'very-likely' });
    expect(pair!.reasons).toContainEqual(expect.objectContaining({ field: 'lastName', agreement: 'typo' }));
  });

  it('is never paired with a record joined into another (decision 048): its survivor stands for it', async () => {
    const person = {
      firstName: 'Iyaloo',
      lastName: 'Shapumba',
      sex: 'Female',
      dateOfBirth: '1987-01-30',
      address: 'Erf 4, Ondangwa, Oshana',
    };
    const survivor = (await post(admin, '/api/admin/patients', { ...person, confirmDuplicate: true })).json<{ id: number }>().id;
    const joined = (await post(admin, '/api/admin/patients', { ...person, confirmDuplicate: true })).json<{ id: number }>().id;
    await t.db.execute(sql`DELETE FROM duplicate_pairs WHERE patient_b = ${joined}`);
    await t.db.execute(sql`UPDATE patients SET replaced_by = ${survivor}, replaced_at = now() WHERE id = ${joined}`);
    const added = await post(admin, '/api/admin/patients', { ...person, confirmDuplicate: true });
    expect(added.statusCode).toBe(201);
    const page = await list();
    expect(pairOf(page, survivor, added.json<{ id: number }>().id)).toMatchObject({ band: 'very-likely' });
    expect(page.items.filter((p) => p.patients.some((x) => x.id === joined))).toEqual([]);
    await scanToEnd();
    expect((await list()).items.filter((p) => p.patients.some((x) => x.id === joined))).toEqual([]);
  });
});

describe('who may', () => {
  it('without patients.merge: 403 on every duplicates route, nothing started or decided', async () => {
    const before = await pairRows();
    const scans = await queryRows(t.db, sql`SELECT id, status, done FROM duplicate_scans ORDER BY id`);
    const id = before[0]!.id;
    for (const res of [
      await get(doctor, '/api/duplicates'),
      await get(doctor, '/api/duplicates/scan'),
      await post(doctor, '/api/duplicates/scan'),
      await post(doctor, `/api/duplicates/${id}/decision`, { decision: 'different', reason: 'No' }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('Nghipondoka');
    }
    expect(await pairRows()).toEqual(before);
    expect(await queryRows(t.db, sql`SELECT id, status, done FROM duplicate_scans ORDER BY id`)).toEqual(scans);
  });

  it('hostile or unfinished decisions: a clear 400 or 404, and nothing changes', async () => {
    const before = await pairRows();
    const id = before.find((p) => p.status === 'open')!.id;
    const cases: [string, object | undefined, number, string][] = [
      [`/api/duplicates/${id}/decision`, { decision: 'same' }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: 'same', survivorId: 99999999, keep: {} }, 400, 'JOIN_SURVIVOR_NOT_IN_PAIR'],
      [`/api/duplicates/${id}/decision`, { decision: 'same', survivorId: 0 }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: 'same', survivorId: 1, keep: { shoeSize: 1 } }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: 'different' }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: 'different', reason: '   ' }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: 'different', reason: 'a\u0000b' }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: 'different', reason: 'x'.repeat(501) }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: 'skip', extra: true }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, { decision: ['skip'] }, 400, 'VALIDATION_FAILED'],
      [`/api/duplicates/${id}/decision`, undefined, 400, 'VALIDATION_FAILED'],
      ['/api/duplicates/0/decision', { decision: 'skip' }, 400, 'VALIDATION_FAILED'],
      ["/api/duplicates/1'/decision", { decision: 'skip' }, 400, 'VALIDATION_FAILED'],
      ['/api/duplicates/99999999/decision', { decision: 'skip' }, 404, 'DUPLICATE_PAIR_NOT_FOUND'],
    ];
    for (const [url, payload, status, code] of cases) {
      const res = await post(admin, url, payload);
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(status);
      expect(res.json()).toMatchObject({ code });
    }
    for (const query of ['status=joined', 'band=maybe', 'pageSize=0', 'pageSize=101', 'page=-1', 'facility=%00', 'unknown=1']) {
      const res = await get(admin, `/api/duplicates?${query}`);
      expect(res.statusCode, query).toBe(400);
    }
    expect(await pairRows()).toEqual(before);
  });

  it('filters by facility (an entry recorded there) and region (the end of the address)', async () => {
    const [a] = people.dayMonth!;
    await t.db.execute(
      sql`INSERT INTO diagnoses (patient_id, condition, status, diagnosed_date, doctor, facility)
          VALUES (${a.id}, 'Hypertension', 'Active', '2020-01-01', 'Dr. Shikongo', 'Oshakati State Hospital')`,
    );
    const atFacility = await list('facility=oshakati%20state%20hospital');
    expect(atFacility.items.map((p) => p.patients.map((x) => x.id))).toEqual([expect.arrayContaining([a.id])]);
    expect((await list('region=Khomas')).total).toBeGreaterThan(0);
    expect((await list('region=Zambezi')).total).toBe(0);
  });
});
