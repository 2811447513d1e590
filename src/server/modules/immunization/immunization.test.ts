// The immunization API on the real app and a real database (issue 25 items 1-3, decision 044): a child's status with
// a reason per dose, grant-checked and audited like a record open; entered-in-error rows and free text; the portal's
// own; the defaulter list of one's own facility (audited as a search, CSV, leaving it when the dose is recorded); an
// administrator loading a schedule version (validated, audited, the old one kept).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, todayIso } from '../../../contracts/calendar';
import { CVX_SYSTEM } from '../../../contracts/code-systems';
import type { DefaultersResponse, ImmunizationStatus } from '../../../contracts/immunization';
import { createSession } from '../../context/session';
import { expectValidFhir } from '../../test/fhir-validator';
import { createPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess, recordApi } from '../../test/record-api';
import { queryOne, queryRows } from '../../test/sql';
import { createStaffUser, signIn, signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { shippedSchedule } from './schedule-file';

const FACILITY = 'Katutura State Hospital';
const today = todayIso();
const DOB = addDays(today, -100); // about 14 weeks old
let t: TestApp;
let nurse: string;
let childId: number;
let api: ReturnType<typeof recordApi>;

const vaccine = (cvx: string | null, name: string, date: string) => ({
  vaccine: name,
  ...(cvx ? { code: cvx, codeSystem: CVX_SYSTEM } : {}),
  date,
  dose: '1',
  facility: FACILITY,
});
const status = (cookie: string, patientId: number) =>
  t.app.inject({ method: 'GET', url: `/api/patients/${patientId}/immunization-status`, headers: { cookie } });
const defaulters = (cookie: string, query: string) => t.app.inject({ method: 'GET', url: `/api/defaulters?${query}`, headers: { cookie } });
const range = `facility=${encodeURIComponent(FACILITY)}&from=${addDays(today, -365)}&to=${today}`;

beforeAll(async () => {
  t = await createTestApp();
  const user = await createStaffUser(t.db, { roleId: 4, facility: FACILITY });
  nurse = await signIn(t.app, user.email, user.password);
  api = recordApi(t, nurse);
  childId = (await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo', dateOfBirth: DOB, sex: 'Female' })).id;
  await confirmAccess(t, nurse, childId);
  expect((await api.add('vaccines', childId, vaccine('198', 'Pentavalent', addDays(DOB, 42)))).statusCode).toBe(201);
  expect((await api.add('vaccines', childId, vaccine(null, 'The pink one', addDays(DOB, 42)))).statusCode).toBe(201);
  const bcg = await api.add('vaccines', childId, vaccine('19', 'BCG', addDays(DOB, 1)));
  expect((await api.remove('vaccines', bcg.json().id, 'Recorded on the wrong child')).statusCode).toBe(204);
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/patients/{id}/immunization-status', () => {
  let s: ImmunizationStatus;
  beforeAll(async () => {
    const res = await status(nurse, childId);
    expect(res.statusCode).toBe(200);
    s = res.json();
  });
  const dose = (id: string) => s.doses.find((d) => d.dose === id);

  it('names the schedule version and its authority', () => {
    const shipped = shippedSchedule();
    expect(shipped.ok && s.scheduleVersion).toBe(shipped.ok ? shipped.schedule.version : false);
    expect(s.authority).toMatch(/Child Health Passport/);
  });

  it('counts the dose given on time and says why the next is overdue, by how many weeks', () => {
    expect(dose('PENTA1')).toMatchObject({ state: 'given', reasons: [{ code: 'GIVEN_ON_TIME', params: { date: addDays(DOB, 42) } }] });
    expect(dose('PENTA2')).toMatchObject({
      state: 'overdue',
      date: addDays(DOB, 70),
      reasons: [{ code: 'OVERDUE', params: { weeks: 4 } }, { code: 'CATCH_UP_UNTIL' }],
    });
  });

  it('does not count an entered-in-error dose (BCG is still overdue)', () => {
    expect(dose('BCG')).toMatchObject({ state: 'overdue', vaccineId: null });
  });

  it('lists the free-text dose it cannot place as not matched', () => {
    expect(s.notMatched).toMatchObject([{ vaccine: 'The pink one', reason: { code: 'NOT_MATCHED' } }]);
  });

  it('is audited like a record open: VIEW PATIENT naming the view and what was returned', async () => {
    const row = await queryOne<{ action: string; resource_type: string; new_values: Record<string, unknown> }>(
      t.db,
      sql`SELECT action, resource_type, new_values FROM audit_logs WHERE patient_id = ${childId} AND action = 'VIEW' ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toMatchObject({
      action: 'VIEW',
      resource_type: 'PATIENT',
      new_values: { view: 'IMMUNIZATION_STATUS', scheduleVersion: s.scheduleVersion, returned: { notMatched: 1 } },
    });
  });

  it('refuses a staff member without a grant (403, nothing read, no audit row), an unknown patient (404) and a bad id (400)', async () => {
    const other = (await signInAs(t, 4)).cookie;
    const before = await auditCount(t);
    const res = await status(other, childId);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ACCESS_GRANT_REQUIRED');
    expect(await auditCount(t)).toBe(before);
    expect((await status(nurse, 2_000_000_000)).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/patients/abc/immunization-status', headers: { cookie: nurse } })).statusCode,
    ).toBe(400);
  });

  it('is served as a FHIR ImmunizationRecommendation: CVX codes, forecast status, reason codes and the due date', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/fhir/R4/ImmunizationRecommendation?patient=${childId}`,
      headers: { cookie: nurse },
    });
    expect(res.statusCode).toBe(200);
    const bundle = expectValidFhir(res.json());
    expect(bundle).toMatchObject({
      resourceType: 'Bundle',
      total: 1,
      entry: [{ resource: { resourceType: 'ImmunizationRecommendation', patient: { reference: `Patient/${childId}` } } }],
    });
    const penta2 = bundle.entry[0].resource.recommendation.find((r: { description: string }) => r.description === 'Pentavalent 2');
    expect(penta2).toMatchObject({
      vaccineCode: [
        {
          coding: [
            { system: CVX_SYSTEM, code: '198' },
            { system: CVX_SYSTEM, code: '146' },
          ],
        },
      ],
      forecastStatus: { coding: [{ code: 'overdue' }] },
      forecastReason: [{ coding: [{ code: 'OVERDUE' }] }, { coding: [{ code: 'CATCH_UP_UNTIL' }] }],
      dateCriterion: [{ code: { coding: [{ code: '30980-7' }] }, value: addDays(DOB, 70) }, { code: { coding: [{ code: '59777-3' }] } }],
    });
    expect((await t.app.inject({ method: 'GET', url: '/fhir/R4/ImmunizationRecommendation', headers: { cookie: nurse } })).statusCode).toBe(
      400,
    );
  });

  it('gives the patient their own status in the portal, and nobody else', async () => {
    const own = `nhr_sid=${(await createSession(t.db, { kind: 'patient', patientId: childId }, new Date())).token}`;
    const res = await t.app.inject({ method: 'GET', url: '/api/patient-portal/immunization-status', headers: { cookie: own } });
    expect(res.statusCode).toBe(200);
    expect(res.json().doses.find((d: { dose: string }) => d.dose === 'PENTA2')).toMatchObject({ state: 'overdue' });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/patient-portal/immunization-status', headers: { cookie: nurse } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/patient-portal/immunization-status' })).statusCode).toBe(401);
  });
});

describe('GET /api/defaulters', () => {
  it('lists the child with the overdue doses, contact details and last visit, audited as a search naming the patients', async () => {
    const res = await defaulters(nurse, range);
    expect(res.statusCode).toBe(200);
    // Without DATABASE_READ_URL the list is read on the primary, and says how fresh it is (decision 058).
    expect(res.headers['x-data-server']).toBe('primary');
    expect(Date.parse(String(res.headers['x-data-as-of']))).not.toBeNaN();
    const list: DefaultersResponse = res.json();
    const child = list.defaulters.find((d) => d.patientId === childId);
    expect(child).toMatchObject({
      firstName: 'Ndapewa',
      contactNumber: '+264 81 555 0101',
      nextOfKin: 'Tuyeni Hamutenya',
      lastVisit: addDays(DOB, 42),
      lastFacility: FACILITY,
    });
    expect(child!.overdue.map((o) => o.dose)).toEqual(expect.arrayContaining(['BCG', 'PENTA2', 'PCV1', 'ROTA1', 'OPV1']));
    const audit = await queryOne<{ action: string; new_values: { criteria: { method: string }; patientIds: number[] } }>(
      t.db,
      sql`SELECT action, new_values FROM audit_logs WHERE action = 'SEARCH' ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toMatchObject({ new_values: { criteria: { method: 'defaulters', facility: FACILITY }, patientIds: [childId] } });
  });

  it('answers CSV with a header row and the child, formula-like cells made inert', async () => {
    const res = await defaulters(nurse, `${range}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const [header, line] = res.body.split('\r\n');
    expect(header).toBe(
      'patient_id,last_name,first_name,date_of_birth,contact_number,next_of_kin,next_of_kin_contact,last_visit,facility,overdue',
    );
    expect(line).toContain(`${childId},Shikongo,Ndapewa,${DOB},'+264 81 555 0101`);
  });

  it('refuses another facility (403, no audit row), a role without the permission (403) and bad dates (400)', async () => {
    const before = await auditCount(t);
    const other = await defaulters(nurse, `facility=Rundu%20State%20Hospital&from=${DOB}&to=${today}`);
    expect(other.statusCode).toBe(403);
    expect(other.json()).toMatchObject({ code: 'DEFAULTERS_OTHER_FACILITY', facility: 'Rundu State Hospital' });
    const paramedic = await createStaffUser(t.db, { roleId: 403, facility: FACILITY });
    expect((await defaulters(await signIn(t.app, paramedic.email, paramedic.password), range)).statusCode).toBe(403);
    expect((await defaulters(nurse, `facility=${encodeURIComponent(FACILITY)}&from=${today}&to=${DOB}`)).statusCode).toBe(400);
    expect((await defaulters(nurse, `facility=${encodeURIComponent(FACILITY)}&from=2020-01-01&to=2026-02-30`)).statusCode).toBe(400);
    expect((await defaulters(nurse, `facility=${encodeURIComponent(FACILITY)}&from=2020-01-01&to=2022-01-01`)).statusCode).toBe(400);
    expect(await auditCount(t)).toBe(before);
  });

  it('a dose recorded takes it off the child’s overdue doses in the same change', async () => {
    expect((await api.add('vaccines', childId, vaccine('198', 'Pentavalent', today))).statusCode).toBe(201);
    const list: DefaultersResponse = (await defaulters(nurse, range)).json();
    expect(list.defaulters.find((d) => d.patientId === childId)!.overdue.map((o) => o.dose)).not.toContain('PENTA2');
    expect((await status(nurse, childId)).json().doses.find((d: { dose: string }) => d.dose === 'PENTA3')).toMatchObject({
      state: 'upcoming',
    });
  });
});

describe('loading a schedule version', () => {
  let admin: string;
  const load = (cookie: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/immunization-schedules', headers: { cookie }, payload: payload as object });
  const next = () => {
    const shipped = shippedSchedule();
    if (!shipped.ok) throw new Error('the shipped schedule is broken');
    return { ...structuredClone(shipped.schedule), version: 'NA-EPI-TEST.2', overdueAfter: '12w' };
  };
  beforeAll(async () => {
    admin = (await signInAs(t, 2)).cookie;
  });

  it('refuses a malformed version with every issue (400) and a nurse (403), storing nothing', async () => {
    const broken = next();
    broken.series[0]!.cvx = ['999'];
    const res = await load(admin, broken);
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toEqual([{ path: 'series.0.cvx.0', message: 'validation:scheduleUnknownVaccine' }]);
    expect((await load(admin, { ...next(), doses: 'none' })).statusCode).toBe(400);
    expect((await load(nurse, next())).statusCode).toBe(403);
    expect((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM immunization_schedules`))!.n).toBe(0);
  });

  it('stores a valid version as current, audited, keeps the shipped one listed, and rewrites the defaulter index', async () => {
    const res = await load(admin, next());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ version: 'NA-EPI-TEST.2', current: true });
    const versions = (await t.app.inject({ method: 'GET', url: '/api/immunization-schedules', headers: { cookie: admin } })).json();
    expect(versions.map((v: { version: string; current: boolean }) => [v.version, v.current])).toEqual([
      ['NA-EPI-TEST.2', true],
      [shippedSchedule().ok ? (shippedSchedule() as { schedule: { version: string } }).schedule.version : '', false],
    ]);
    const audit = await queryRows<{ action: string; new_values: { version: string } }>(
      t.db,
      sql`SELECT action, new_values FROM audit_logs WHERE resource_type = 'IMMUNIZATION_SCHEDULE'`,
    );
    expect(audit).toMatchObject([{ action: 'CREATE', new_values: { version: 'NA-EPI-TEST.2' } }]);
    const s: ImmunizationStatus = (await status(nurse, childId)).json();
    expect(s.scheduleVersion).toBe('NA-EPI-TEST.2');
    // Overdue only 12 weeks after due now: PCV 1, due at 6 weeks (58 days ago), is not overdue yet.
    expect(s.doses.find((d) => d.dose === 'PCV1')).toMatchObject({ state: 'due' });
    const index = await queryOne<{ overdue_from: string }>(
      t.db,
      sql`SELECT overdue_from::text FROM immunization_due WHERE patient_id = ${childId} AND dose = 'PCV1'`,
    );
    expect(index!.overdue_from).toBe(addDays(addDays(DOB, 42), 84));
  });

  it('refuses the same version name again (409)', async () => {
    const res = await load(admin, next());
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'CONFLICT', version: 'NA-EPI-TEST.2' });
  });
});
