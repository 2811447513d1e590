// The medicine checks seen from review (issue 25 items 4-5; decision 045), through the real API: every 409 a
// clinician is shown counts as alerts shown; the monthly report counts shown and overridden per month and facility
// with the override reasons, for auditors and administrators only; the privacy review lists each override (who, when,
// patient, medicine, finding, reason, knowledge version); a record's medicine details list minor findings too.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATC_SYSTEM } from '../../../contracts/code-systems';
import type { MedicineReport, MedicineOverridePage } from '../../../contracts/medicine-check-report';
import { ROLE_IDS } from '../../../contracts/constants';
import type { RecordMedicineChecks } from '../../../contracts/medicine-checks';
import { createPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { createStaffUser, signIn, signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let doctor: string;
let doctorId: string;
let auditor: string;
let admin: string;
let patientId: number;
let amoxicillinId: number;
const reason = 'Skin test negative in 2025, allergist advice';

const medicine = (name: string, code: string) => ({ ...SAMPLE_INPUTS.medications, name, code, codeSystem: ATC_SYSTEM });
const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const add = (kind: string, payload: object, query = '') =>
  t.app.inject({ method: 'POST', url: `/api/patients/${patientId}/${kind}${query}`, headers: { cookie: doctor }, payload });
const thisMonth = (): string => new Date().toISOString().slice(0, 7);

beforeAll(async () => {
  t = await createTestApp();
  const user = await createStaffUser(t.db, { roleId: ROLE_IDS.doctor, facility: 'Oshakati State Hospital' });
  doctorId = user.id;
  doctor = await signIn(t.app, user.email, user.password);
  auditor = (await signInAs(t, ROLE_IDS.auditor)).cookie;
  admin = (await signInAs(t, ROLE_IDS.admin)).cookie;
  patientId = (await createPatient(t.db, { firstName: 'Ndapewa', lastName: 'Shikongo' })).id;
  await confirmAccess(t, doctor, patientId);
  expect(
    (await add('allergies', { ...SAMPLE_INPUTS.allergies, allergen: 'Penicillin', code: 'J01C', codeSystem: ATC_SYSTEM })).statusCode,
  ).toBe(201);
  // Shown twice (the first try and the confirm without a reason), then overridden with a reason.
  expect((await add('medications', medicine('Amoxicillin', 'J01CA04'))).statusCode).toBe(409);
  expect((await add('medications', medicine('Amoxicillin', 'J01CA04'), '?confirm=MEDICINE_ALLERGY_CONTRAINDICATED')).statusCode).toBe(409);
  const stored = await add(
    'medications',
    medicine('Amoxicillin', 'J01CA04'),
    `?confirm=MEDICINE_ALLERGY_CONTRAINDICATED&overrideReason=${encodeURIComponent(reason)}`,
  );
  expect(stored.statusCode).toBe(201);
  amoxicillinId = stored.json().id as number;
  // A serious interaction shown once and confirmed; a minor one never shown.
  expect((await add('medications', medicine('Rifampicin', 'J04AB02'))).statusCode).toBe(201);
  expect((await add('medications', medicine('TLD', 'J05AR27'))).statusCode).toBe(409);
  expect((await add('medications', medicine('TLD', 'J05AR27'), '?confirm=INTERACTION_SERIOUS')).statusCode).toBe(201);
  expect((await add('medications', medicine('Efavirenz', 'J05AG03'))).statusCode).toBe(201);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('alerts shown', () => {
  it('records each medicine-check warning of a 409, with its knowledge version and no patient', async () => {
    const rows = await queryRows<{ code: string; tier: string; channel: string; rule: string; knowledge_version: string }>(
      t.db,
      sql`SELECT code, tier, channel, rule, knowledge_version FROM medicine_check_alerts WHERE user_id = ${doctorId} ORDER BY id`,
    );
    expect(rows.map((r) => [r.code, r.channel])).toEqual([
      ['MEDICINE_ALLERGY_CONTRAINDICATED', 'record'],
      ['MEDICINE_ALLERGY_CONTRAINDICATED', 'record'],
      ['INTERACTION_SERIOUS', 'record'],
    ]);
    expect(rows.every((r) => /^\d{4}-\d\d-\d\d\.\d+\+[0-9a-f]{8}$/.test(r.knowledge_version))).toBe(true);
    const columns = await queryRows<{ name: string }>(
      t.db,
      sql`SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'medicine_check_alerts'`,
    );
    expect(columns.map((c) => c.name)).not.toContain('patient_id');
  });

  it('does not count a duplicate warning (not a medicine check)', async () => {
    const before = (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM medicine_check_alerts`))!.n;
    const res = await add('medications', medicine('Efavirenz', 'J05AG03'));
    expect(res.json().warnings.map((w: { code: string }) => w.code)).toEqual(['DUPLICATE_ENTRY']);
    expect((await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM medicine_check_alerts`))!.n).toBe(before);
  });
});

describe('GET /api/medicine-checks/report', () => {
  it('counts shown and overridden this month for the facility, with the override reason, and is audited', async () => {
    const before = await auditCount(t);
    const res = await get('/api/medicine-checks/report', auditor);
    expect(res.statusCode).toBe(200);
    const report = res.json() as MedicineReport;
    expect(report.to).toBe(thisMonth());
    expect(report.rows).toEqual([
      {
        month: thisMonth(),
        facility: 'Oshakati State Hospital',
        shown: { contraindicated: 2, serious: 1, minor: 0, total: 3 },
        overridden: { contraindicated: 1, serious: 1, minor: 0, total: 2 },
      },
    ]);
    expect(report.reasons).toEqual([
      { month: thisMonth(), facility: 'Oshakati State Hospital', code: 'MEDICINE_ALLERGY_CONTRAINDICATED', reason, count: 1 },
    ]);
    expect(await auditCount(t)).toBe(before + 1);
    const audit = await queryOne<{ action: string; resource_type: string }>(
      t.db,
      sql`SELECT action, resource_type FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ action: 'VIEW', resource_type: 'COMPLIANCE_REPORT' });
  });

  it('filters by facility and by months, and an administrator may read it too', async () => {
    const other = await get('/api/medicine-checks/report?facility=Rundu%20State%20Hospital', admin);
    expect(other.statusCode).toBe(200);
    expect((other.json() as MedicineReport).rows).toEqual([]);
    const past = await get('/api/medicine-checks/report?from=2020-01&to=2020-12', admin);
    expect((past.json() as MedicineReport).totals.shown.total).toBe(0);
  });

  it('gives 403 to a clinician', async () => {
    const res = await get('/api/medicine-checks/report', doctor);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'PERMISSION_REQUIRED' });
  });

  it.each([
    ['a month that is not one', 'from=2026-13&to=2026-12'],
    ['one month without the other', 'from=2026-01'],
    ['from after to', 'from=2026-10&to=2026-01'],
    ['more than 24 months', 'from=2020-01&to=2026-01'],
    ['an unknown parameter', 'month=2026-01'],
    ['a NUL in the facility', 'facility=a%00b'],
  ])('refuses %s with 400 and writes nothing', async (_label, query) => {
    const before = await auditCount(t);
    const res = await get(`/api/medicine-checks/report?${query}`, auditor);
    expect(res.statusCode).toBe(400);
    expect(await auditCount(t)).toBe(before);
  });
});

describe('GET /api/privacy-reviews/medicine-overrides', () => {
  it('lists each override for the auditor: who, when, patient, medicine, finding, reason and knowledge version', async () => {
    const res = await get('/api/privacy-reviews/medicine-overrides', auditor);
    expect(res.statusCode).toBe(200);
    const page = res.json() as MedicineOverridePage;
    expect(page.total).toBe(2);
    expect(page.items[1]).toEqual({
      id: expect.any(Number),
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      user: { id: doctorId, name: expect.any(String) },
      facility: 'Oshakati State Hospital',
      patient: { id: patientId, name: 'Ndapewa Shikongo' },
      kind: 'medications',
      itemId: amoxicillinId,
      code: 'MEDICINE_ALLERGY_CONTRAINDICATED',
      tier: 'contraindicated',
      substance: 'Amoxicillin',
      other: 'Penicillin',
      rule: 'atc-hierarchy',
      knowledgeVersion: expect.stringMatching(/^\d{4}-\d\d-\d\d\.\d+\+[0-9a-f]{8}$/),
      reason,
    });
    expect(page.items[0]).toMatchObject({ code: 'INTERACTION_SERIOUS', reason: null, substance: 'TLD', other: 'Rifampicin' });
    const audit = await queryOne<{ action: string; resource_type: string }>(
      t.db,
      sql`SELECT action, resource_type FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ action: 'VIEW', resource_type: 'AUDIT_LOG' });
  });

  it('gives 403 to a clinician and to an administrator without audit.review', async () => {
    expect((await get('/api/privacy-reviews/medicine-overrides', doctor)).statusCode).toBe(403);
    expect((await get('/api/privacy-reviews/medicine-overrides', admin)).statusCode).toBe(403);
  });

  it('refuses a bad page with 400', async () => {
    expect((await get('/api/privacy-reviews/medicine-overrides?page=0', auditor)).statusCode).toBe(400);
    expect((await get('/api/privacy-reviews/medicine-overrides?pageSize=1000', auditor)).statusCode).toBe(400);
  });
});

describe("GET /api/patients/{id}/medicine-checks (the medicines' details)", () => {
  it('lists every finding of each active medicine, the minor one too, with its statement in en, af and ng', async () => {
    const res = await get(`/api/patients/${patientId}/medicine-checks`, doctor);
    expect(res.statusCode).toBe(200);
    const checks = res.json() as RecordMedicineChecks;
    expect(checks.available).toBe(true);
    const rules = (code: string) =>
      checks.medications.flatMap((m) => m.findings.filter((f) => f.code === code).map((f) => `${f.substance}/${f.other}`));
    expect(rules('INTERACTION_MINOR').sort()).toEqual(['Efavirenz/Rifampicin', 'Rifampicin/Efavirenz']);
    const minor = checks.medications.flatMap((m) => m.findings).find((f) => f.tier === 'minor')!;
    expect(minor.statement).toMatch(/^Rifampicin lowers efavirenz levels a little/);
    expect(minor.statementAf).toMatch(/^Rifampisien verlaag efavirenzvlakke effens/);
    expect(minor.statementNg).toMatch(/^Rifampicin ohayi shunitha efavirenz molutu kashona/);
    expect(rules('MEDICINE_ALLERGY_CONTRAINDICATED')).toEqual(['Amoxicillin/Penicillin']);
  });

  it('is audited as a read of the medications and refused without a grant', async () => {
    const audit = await queryOne<{ action: string; resource_type: string; patient_id: number }>(
      t.db,
      sql`SELECT action, resource_type, patient_id FROM audit_logs WHERE user_id = ${doctorId} ORDER BY id DESC LIMIT 1`,
    );
    expect(audit).toEqual({ action: 'VIEW', resource_type: 'MEDICATION', patient_id: patientId });
    const stranger = (await createPatient(t.db)).id;
    expect((await get(`/api/patients/${stranger}/medicine-checks`, doctor)).statusCode).toBe(403);
    expect((await get(`/api/patients/${patientId}/medicine-checks`, auditor)).statusCode).toBe(403);
  });
});
