// The privacy review API (docs/decisions/018-privacy-review.md) through the real app: the queue and its filters, one
// access's detail with what was read and changed during the grant, verdicts as audit rows, the reviewer's counts,
// the VIP marker, what the patient is told in the portal, and the HIPAA report's review columns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { BreakGlassAccess, BreakGlassDetail } from '../../../contracts/privacy-review';
import type { HipaaReportData } from '../../../contracts/compliance-report-data';
import { createSession } from '../../context/session';
import { breakGlass, insertPatientAt, staffFrom, WINDHOEK, withConsent, type SignedInStaff } from '../../test/privacy-fixtures';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { computeReportData } from '../audit/reports.service';

let t: TestApp;
let auditor: { cookie: string; id: string };
let sysadmin: string;
let paramedic: SignedInStaff;
let nurse: SignedInStaff;
let patient: { id: number };
let otherPatient: { id: number };

const get = (url: string, cookie = auditor.cookie) => t.app.inject({ method: 'GET', url, headers: { cookie } });
const verdict = (id: number, payload: unknown, cookie = auditor.cookie) =>
  t.app.inject({ method: 'POST', url: `/api/privacy-reviews/${id}/verdict`, headers: { cookie }, payload: payload as object });
const queue = async (query = ''): Promise<{ items: BreakGlassAccess[]; total: number }> => {
  const res = await get(`/api/privacy-reviews${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const auditCount = async (): Promise<number> => (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM audit_logs`))!.n;

beforeAll(async () => {
  t = await createTestApp();
  const a = await signInAs(t, 6);
  auditor = { cookie: a.cookie, id: a.user.id };
  sysadmin = (await signInAs(t, 1)).cookie;
  paramedic = await staffFrom(t.app, t.db, { firstName: 'Johannes', lastName: 'Ndeitunga', facility: 'Katutura State Hospital' });
  nurse = await staffFrom(t.app, t.db, { roleId: 4, firstName: 'Aune', lastName: 'Shivute', facility: 'Oshakati State Hospital' });
  patient = await insertPatientAt(t.db, 'Haufiku', WINDHOEK, 'Ndinelao');
  otherPatient = await insertPatientAt(t.db, 'Iipinge', WINDHOEK, 'Petrus');
  // The paramedic breaks the glass, reads the record and adds an allergy; the nurse breaks the glass too.
  await breakGlass(t.app, paramedic.cookie, patient.id, 'Unconscious after a road accident');
  expect((await get(`/api/patients/${patient.id}/diagnoses`, paramedic.cookie)).statusCode).toBe(200);
  const added = await t.app.inject({
    method: 'POST',
    url: `/api/patients/${patient.id}/allergies`,
    headers: { cookie: paramedic.cookie },
    payload: { allergen: 'Penicillin', reaction: 'Hives', severity: 'Severe', reportedDate: '2026-01-10' },
  });
  expect(added.statusCode, added.body).toBe(201);
  await withConsent(t.app, paramedic.cookie, otherPatient.id);
  await breakGlass(t.app, nurse.cookie, otherPatient.id, 'Collapsed in the waiting room');
});
afterAll(async () => {
  await t?.close();
});

describe('the review queue (GET /api/privacy-reviews)', () => {
  it('lists every unreviewed break-the-glass access, newest first, with who, role, facility, patient and reason', async () => {
    const { items, total } = await queue();
    expect(total).toBe(2);
    expect(items.map((i) => [i.user.name, i.patient.id])).toEqual([
      ['Aune Shivute', otherPatient.id],
      ['Johannes Ndeitunga', patient.id],
    ]);
    expect(items[1]).toMatchObject({
      user: { id: paramedic.id, name: 'Johannes Ndeitunga', role: { name: 'paramedic', displayName: 'Paramedic' } },
      facility: 'Katutura State Hospital',
      patient: { id: patient.id, name: 'Ndinelao Haufiku', restricted: false },
      reason: 'Unconscious after a road accident',
      flags: [],
      review: null,
    });
    // The Oshakati nurse opened a Windhoek patient: flagged, with the reason.
    expect(items[0]!.flags).toEqual([{ code: 'OUT_OF_REGION', details: { userRegion: 'Oshana', patientRegion: 'Khomas' } }]);
  });

  it('filters by facility and by user, and consent accesses never appear', async () => {
    expect((await queue('?facility=Katutura%20State%20Hospital')).items.map((i) => i.user.id)).toEqual([paramedic.id]);
    expect((await queue(`?userId=${nurse.id}`)).items.map((i) => i.user.id)).toEqual([nurse.id]);
    expect((await queue('?facility=Rundu%20State%20Hospital')).total).toBe(0);
    expect((await queue(`?userId=${paramedic.id}&status=all`)).items.map((i) => i.patient.id)).toEqual([patient.id]);
  });

  it('records the read as VIEW AUDIT_LOG', async () => {
    await queue('?status=all');
    const row = await queryOne<{
      user_id: string;
      action: string;
      resource_type: string;
      new_values: { privacyReview: { returned: number } };
    }>(t.db, sql`SELECT user_id, action, resource_type, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`);
    expect(row).toMatchObject({
      user_id: auditor.id,
      action: 'VIEW',
      resource_type: 'AUDIT_LOG',
      new_values: { privacyReview: { returned: 2 } },
    });
  });

  it.each([
    ['an unknown status', '?status=pending'],
    ['page 0', '?page=0'],
    ['a page size of 101', '?pageSize=101'],
    ['an unknown parameter', '?verdict=JUSTIFIED'],
    ['a 201-character facility', `?facility=${'x'.repeat(201)}`],
  ])('answers 400 for %s and records nothing', async (_label, query) => {
    const before = await auditCount();
    const res = await get(`/api/privacy-reviews${query}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
    expect(await auditCount()).toBe(before);
  });
});

describe('one access (GET /api/privacy-reviews/{id})', () => {
  it('shows what the user read and changed about the patient while the grant was live', async () => {
    const [access] = (await queue(`?userId=${paramedic.id}&status=all`)).items;
    const res = await get(`/api/privacy-reviews/${access!.id}`);
    expect(res.statusCode).toBe(200);
    const detail: BreakGlassDetail = res.json();
    expect(detail.access.id).toBe(access!.id);
    expect(Date.parse(detail.grantExpiresAt!) - Date.parse(detail.access.at)).toBeGreaterThan(7.9 * 3_600_000);
    expect(detail.activity.map((a) => [a.action, a.resourceType])).toEqual([
      ['VIEW', 'DIAGNOSIS'],
      ['CREATE', 'ALLERGY'],
    ]);
    expect(detail.activity[1]!.newValues).toMatchObject({ allergen: 'Penicillin' });
    expect(detail.reviews).toEqual([]);
    // The other patient's consent access is not part of this grant.
    expect(detail.activity.every((a) => a.resourceType !== 'PATIENT')).toBe(true);
  });

  it('answers 404 for an audit row that is not a break-the-glass access, and 400 for a malformed id', async () => {
    const consentRow = await queryOne<{ id: number }>(
      t.db,
      sql`SELECT id::int FROM audit_logs WHERE compliance_flags ->> 'type' = 'CONSENT' LIMIT 1`,
    );
    expect((await get(`/api/privacy-reviews/${consentRow!.id}`)).statusCode).toBe(404);
    expect((await get('/api/privacy-reviews/99999999')).json()).toMatchObject({ code: 'BREAK_GLASS_ACCESS_NOT_FOUND' });
    for (const id of ['abc', '0', '-1', '1.5', '99999999999999999'])
      expect((await get(`/api/privacy-reviews/${id}`)).statusCode, id).toBe(400);
  });
});

describe('verdicts (POST /api/privacy-reviews/{id}/verdict)', () => {
  it('records a verdict as an audit row, takes the access off the unreviewed queue, and the latest verdict counts', async () => {
    const [access] = (await queue(`?userId=${paramedic.id}`)).items;
    const first = await verdict(access!.id, { verdict: 'FOLLOW_UP', note: 'Ask the crew for the run sheet' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ verdict: 'FOLLOW_UP', note: 'Ask the crew for the run sheet', reviewerId: auditor.id });
    const row = await queryOne(
      t.db,
      sql`SELECT user_id, action, resource_type, resource_id, patient_id, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({
      user_id: auditor.id,
      action: 'CREATE',
      resource_type: 'ACCESS_REVIEW',
      resource_id: String(access!.id),
      patient_id: patient.id,
      new_values: { verdict: 'FOLLOW_UP', note: 'Ask the crew for the run sheet', reviewedUserId: paramedic.id },
    });
    expect((await queue(`?userId=${paramedic.id}`)).total).toBe(0);
    expect((await queue(`?userId=${paramedic.id}&status=reviewed`)).items[0]!.review).toMatchObject({ verdict: 'FOLLOW_UP' });

    expect((await verdict(access!.id, { verdict: 'JUSTIFIED', note: 'Run sheet confirms the accident' }, sysadmin)).statusCode).toBe(201);
    const detail: BreakGlassDetail = (await get(`/api/privacy-reviews/${access!.id}`)).json();
    expect(detail.access.review).toMatchObject({ verdict: 'JUSTIFIED', note: 'Run sheet confirms the accident' });
    expect(detail.reviews.map((r) => r.verdict)).toEqual(['JUSTIFIED', 'FOLLOW_UP']);
  });

  it.each([
    ['no verdict', { note: 'Fine' }, 'verdict', 'privacy:validation.verdictRequired'],
    ['an unknown verdict', { verdict: 'MAYBE', note: 'Fine' }, 'verdict', 'privacy:validation.verdictRequired'],
    ['no note', { verdict: 'JUSTIFIED' }, 'note', 'privacy:validation.noteRequired'],
    ['a blank note', { verdict: 'JUSTIFIED', note: '   ' }, 'note', 'privacy:validation.noteRequired'],
    ['a 1,001-character note', { verdict: 'JUSTIFIED', note: 'x'.repeat(1001) }, 'note', 'validation:tooLong'],
  ])('refuses %s with 400 and writes nothing', async (_label, payload, path, message) => {
    const [access] = (await queue('?status=all')).items;
    const before = await auditCount();
    const res = await verdict(access!.id, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().issues).toContainEqual({ path, message });
    expect(await auditCount()).toBe(before);
  });

  it('refuses unknown fields, unknown rows and consent rows', async () => {
    const [access] = (await queue('?status=all')).items;
    expect((await verdict(access!.id, { verdict: 'JUSTIFIED', note: 'ok', reviewerId: 'someone-else' })).statusCode).toBe(400);
    expect((await verdict(99_999_999, { verdict: 'JUSTIFIED', note: 'ok' })).statusCode).toBe(404);
    const consentRow = await queryOne<{ id: number }>(
      t.db,
      sql`SELECT id::int FROM audit_logs WHERE compliance_flags ->> 'type' = 'CONSENT' LIMIT 1`,
    );
    expect((await verdict(consentRow!.id, { verdict: 'JUSTIFIED', note: 'ok' })).statusCode).toBe(404);
  });

  it("refuses a reviewer's verdict on their own break-the-glass access (REVIEW_OWN_ACCESS) and writes nothing", async () => {
    // A user who both breaks the glass and reviews: a paramedic given audit.review by a per-user grant.
    const both = await staffFrom(t.app, t.db, { facility: 'Emed' });
    await t.db.execute(
      sql`INSERT INTO user_permissions (user_id, permission_id) SELECT ${both.id}, id FROM permissions WHERE name = 'audit.review'`,
    );
    const p = await insertPatientAt(t.db, 'Amwaama', WINDHOEK);
    await breakGlass(t.app, both.cookie, p.id);
    const [own] = (await queue(`?userId=${both.id}`)).items;
    const before = await auditCount();
    const res = await verdict(own!.id, { verdict: 'JUSTIFIED', note: 'It was fine' }, both.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('REVIEW_OWN_ACCESS');
    expect(await auditCount()).toBe(before);
  });
});

describe('reviewer counts (GET /api/privacy-reviews/summary)', () => {
  it('counts unreviewed accesses and those whose latest verdict is follow-up or not justified', async () => {
    const before = (await get('/api/privacy-reviews/summary')).json();
    const p = await insertPatientAt(t.db, 'Kandjii', WINDHOEK);
    await breakGlass(t.app, nurse.cookie, p.id);
    expect((await get('/api/privacy-reviews/summary')).json()).toEqual({ ...before, unreviewed: before.unreviewed + 1 });
    const [access] = (await queue(`?userId=${nurse.id}`)).items;
    await verdict(access!.id, { verdict: 'NOT_JUSTIFIED', note: 'Not her patient' });
    expect((await get('/api/privacy-reviews/summary')).json()).toEqual({ ...before, notJustified: before.notJustified + 1 });
  });
});

describe('the VIP/restricted marker (PUT /api/patients/{id}/restricted)', () => {
  it('is set by an administrator and audited as UPDATE PATIENT with the old and new value', async () => {
    const admin = (await signInAs(t, 2)).cookie;
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/patients/${otherPatient.id}/restricted`,
      headers: { cookie: admin },
      payload: { restricted: true },
    });
    expect(res.json()).toEqual({ id: otherPatient.id, restricted: true });
    const row = await queryOne(
      t.db,
      sql`SELECT action, resource_type, patient_id, old_values, new_values FROM audit_logs ORDER BY id DESC LIMIT 1`,
    );
    expect(row).toEqual({
      action: 'UPDATE',
      resource_type: 'PATIENT',
      patient_id: otherPatient.id,
      old_values: { restricted: false },
      new_values: { restricted: true },
    });
  });

  it('refuses bad input with 400 and an unknown patient with 404, changing nothing', async () => {
    const admin = (await signInAs(t, 2)).cookie;
    const put = (id: number | string, payload: unknown) =>
      t.app.inject({ method: 'PUT', url: `/api/patients/${id}/restricted`, headers: { cookie: admin }, payload: payload as object });
    const before = await auditCount();
    for (const payload of [{}, { restricted: 'yes' }, { restricted: true, lastName: 'X' }])
      expect((await put(patient.id, payload)).statusCode).toBe(400);
    expect((await put('abc', { restricted: true })).statusCode).toBe(400);
    expect((await put(99_999_999, { restricted: true })).statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });
});

describe('what the patient is told in the portal', () => {
  it('shows the verdict of each break-the-glass access and counts the unreviewed ones', async () => {
    const p = await insertPatientAt(t.db, 'Nakale', WINDHOEK, 'Hilma');
    await breakGlass(t.app, paramedic.cookie, p.id, 'First emergency');
    await breakGlass(t.app, nurse.cookie, p.id, 'Second emergency');
    await withConsent(t.app, nurse.cookie, p.id);
    const cookie = `nhr_sid=${(await createSession(t.db, { kind: 'patient', patientId: p.id }, new Date())).token}`;
    const summary = () => get('/api/patient-portal/access-summary', cookie);
    expect((await summary()).json()).toEqual({ unreviewedEmergencyAccesses: 2 });

    const firstAccess = (await queue(`?userId=${paramedic.id}`)).items.find((i) => i.patient.id === p.id)!;
    expect((await verdict(firstAccess.id, { verdict: 'JUSTIFIED', note: 'Confirmed by the run sheet' })).statusCode).toBe(201);
    expect((await summary()).json()).toEqual({ unreviewedEmergencyAccesses: 1 });

    const log = (await get('/api/patient-portal/access-log', cookie)).json();
    const byReason = Object.fromEntries(
      log.items
        .filter((i: { kind: string }) => i.kind !== 'SEARCH')
        .map((i: { reason: string | null; kind: string; review: unknown }) => [i.reason ?? i.kind, i.review]),
    );
    expect(byReason['First emergency']).toMatchObject({ verdict: 'JUSTIFIED' });
    expect(byReason['Second emergency']).toBeNull();
    expect(byReason.CONSENT).toBeNull();
    // The patient sees the verdict, never the reviewer's note.
    expect(JSON.stringify(log)).not.toContain('run sheet');
  });

  it('is only for the signed-in patient: staff get 403, signed out 401', async () => {
    expect((await get('/api/patient-portal/access-summary', auditor.cookie)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/patient-portal/access-summary' })).statusCode).toBe(401);
  });
});

describe('HIPAA report', () => {
  it('lists break-the-glass accesses with their verdict, reviewer and the time to review', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const data = (await computeReportData(t.db, 'HIPAA', today, today)) as HipaaReportData;
    const total = (await queryRows(t.db, sql`SELECT id FROM audit_logs WHERE compliance_flags ->> 'type' = 'BREAK_GLASS'`)).length;
    expect(data.summary.breakGlassAccesses).toBe(total);
    expect(data.summary.breakGlassReviewed + data.summary.breakGlassUnreviewed).toBe(total);
    const row = data.breakGlassAccesses.rows.find((r) => r.patientId === patient.id && r.userId === paramedic.id)!;
    expect(row).toMatchObject({ verdict: 'JUSTIFIED', reviewedBy: expect.any(String), reviewedAt: expect.any(String) });
    expect(row.minutesToReview).toBeGreaterThanOrEqual(0);
    const unreviewed = data.breakGlassAccesses.rows.filter((r) => r.verdict === null);
    expect(unreviewed).toHaveLength(data.summary.breakGlassUnreviewed);
    expect(unreviewed.every((r) => r.minutesToReview === null && r.reviewedAt === null)).toBe(true);
  });
});
