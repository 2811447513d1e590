// The medicine safety checks through the real API on a real database (issue 25 item 4; decision 043): an allergy
// against a new medicine, a new allergy against the active medicines, two medicines against each other; the
// contraindicated tier needs confirm and an override reason, which is stored with the change and named in its audit
// row; serious needs confirm only; minor never interrupts; entered-in-error and stopped entries do not count.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATC_SYSTEM } from '../../../contracts/code-systems';
import type { RecordKind } from '../../../contracts/kinds';
import type { RecordWarning } from '../../../contracts/record-warnings';
import { createPatient } from '../../test/patient-fixtures';
import { auditCount, confirmAccess, doctorWithRecord, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryOne, queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let cookie: string;
let api: ReturnType<typeof recordApi>;

beforeAll(async () => {
  t = await createTestApp();
  ({ cookie } = await doctorWithRecord(t));
  api = recordApi(t, cookie);
});
afterAll(async () => {
  await t?.close();
});

const medicine = (name: string, code: string) => ({ ...SAMPLE_INPUTS.medications, name, code, codeSystem: ATC_SYSTEM });
const allergy = (allergen: string, code: string) => ({ ...SAMPLE_INPUTS.allergies, allergen, code, codeSystem: ATC_SYSTEM });

/** An add with ?confirm= and ?overrideReason= as the client sends them. */
const add = (kind: RecordKind, patientId: number, payload: object, confirm: string[] = [], overrideReason?: string) => {
  const query = new URLSearchParams();
  if (confirm.length) query.set('confirm', confirm.join(','));
  if (overrideReason !== undefined) query.set('overrideReason', overrideReason);
  return t.app.inject({ method: 'POST', url: `/api/patients/${patientId}/${kind}?${query.toString()}`, headers: { cookie }, payload });
};

async function newPatient(): Promise<number> {
  const patient = await createPatient(t.db);
  await confirmAccess(t, cookie, patient.id);
  return patient.id;
}

const version = async (): Promise<string> =>
  (await t.app.inject({ method: 'GET', url: '/api/medicine-checks/status', headers: { cookie } })).json().version;
const overrides = (patientId: number) =>
  queryRows<{ code: string; tier: string; reason: string | null; item_id: number; params: Record<string, string> }>(
    t.db,
    sql`SELECT code, tier, reason, item_id, params FROM medicine_check_overrides WHERE patient_id = ${patientId} ORDER BY id`,
  );
const listed = async (kind: RecordKind, patientId: number): Promise<number> => (await api.list(kind, patientId)).json().length;

describe('a penicillin allergy and amoxicillin', () => {
  let patientId: number;
  beforeAll(async () => {
    patientId = await newPatient();
    expect((await add('allergies', patientId, allergy('Penicillin', 'J01C'))).statusCode).toBe(201);
  });

  it('answers 409 with a contraindicated warning naming both, the knowledge version and the source; nothing stored', async () => {
    const before = await auditCount(t);
    const res = await add('medications', patientId, medicine('Amoxicillin', 'J01CA04'));
    expect(res.statusCode).toBe(409);
    const body = res.json() as { code: string; warnings: RecordWarning[]; overrideReasonRequired: boolean };
    expect(body.code).toBe('CONFIRMATION_REQUIRED');
    expect(body.overrideReasonRequired).toBe(true);
    expect(body.warnings).toEqual([
      expect.objectContaining({
        code: 'MEDICINE_ALLERGY_CONTRAINDICATED',
        tier: 'contraindicated',
        params: expect.objectContaining({ substance: 'Amoxicillin', other: 'Penicillin', version: await version(), rule: 'atc-hierarchy' }),
      }),
    ]);
    expect(body.warnings[0]!.params!.version).toMatch(/^\d{4}-\d\d-\d\d\.\d+\+[0-9a-f]{8}$/);
    expect(await auditCount(t)).toBe(before);
  });

  it('refuses a confirmation without an override reason, and stores it with one, keeping the reason and auditing the override', async () => {
    const refused = await add('medications', patientId, medicine('Amoxicillin', 'J01CA04'), ['MEDICINE_ALLERGY_CONTRAINDICATED']);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().warnings.map((w: RecordWarning) => w.code)).toEqual(['MEDICINE_ALLERGY_CONTRAINDICATED']);
    const reasonOnly = await add('medications', patientId, medicine('Amoxicillin', 'J01CA04'), [], 'Skin test negative in 2025');
    expect(reasonOnly.statusCode).toBe(409);
    expect(await listed('medications', patientId)).toBe(0);

    const reason = 'Skin test negative in 2025, allergist advice';
    const res = await add('medications', patientId, medicine('Amoxicillin', 'J01CA04'), ['MEDICINE_ALLERGY_CONTRAINDICATED'], reason);
    expect(res.statusCode).toBe(201);
    const id = res.json().id as number;
    expect(await overrides(patientId)).toEqual([
      expect.objectContaining({ code: 'MEDICINE_ALLERGY_CONTRAINDICATED', tier: 'contraindicated', reason, item_id: id }),
    ]);
    const audit = await queryOne<{ new_values: { overridden: string[] } }>(
      t.db,
      sql`SELECT new_values FROM audit_logs WHERE action = 'CREATE' AND resource_type = 'MEDICATION' AND resource_id = ${String(id)} AND patient_id = ${patientId}`,
    );
    expect(audit?.new_values.overridden).toEqual(['MEDICINE_ALLERGY_CONTRAINDICATED']);
    expect(JSON.stringify(audit?.new_values)).not.toContain('Skin test'); // the reason text is not in the chain
  });

  it('warns of a cephalosporin as a serious cross-reactivity that confirm alone stores', async () => {
    const res = await add('medications', patientId, medicine('Ceftriaxone', 'J01DD04'));
    expect(res.statusCode).toBe(409);
    expect(res.json().overrideReasonRequired).toBeUndefined();
    expect(res.json().warnings).toEqual([
      expect.objectContaining({
        code: 'MEDICINE_ALLERGY_CROSS_REACTIVITY',
        tier: 'serious',
        params: expect.objectContaining({ rule: 'penicillins-to-cephalosporins' }),
      }),
    ]);
    expect(
      (await add('medications', patientId, medicine('Ceftriaxone', 'J01DD04'), ['MEDICINE_ALLERGY_CROSS_REACTIVITY'])).statusCode,
    ).toBe(201);
  });

  it('does not check a stopped medicine or free text', async () => {
    expect((await add('medications', patientId, { ...medicine('Ampicillin', 'J01CA01'), status: 'Discontinued' })).statusCode).toBe(201);
    expect((await add('medications', patientId, { ...medicine('Paracetamol', 'N02BE01') })).statusCode).toBe(201);
  });
});

describe('entries that no longer count', () => {
  it('ignores an allergy entered in error', async () => {
    const patientId = await newPatient();
    const wrong = (await add('allergies', patientId, allergy('Penicillin', 'J01C'))).json();
    expect((await api.remove('allergies', wrong.id, 'Wrong patient')).statusCode).toBe(204);
    expect((await add('medications', patientId, medicine('Amoxicillin', 'J01CA04'))).statusCode).toBe(201);
  });

  it('ignores a discontinued medicine when another is added', async () => {
    const patientId = await newPatient();
    expect((await add('medications', patientId, { ...medicine('Rifampicin', 'J04AB02'), status: 'Discontinued' })).statusCode).toBe(201);
    expect((await add('medications', patientId, medicine('Nevirapine', 'J05AG01'))).statusCode).toBe(201);
  });
});

describe('an allergy added against the active medicines', () => {
  it('warns that an active medicine is contraindicated by the new allergy', async () => {
    const patientId = await newPatient();
    expect((await add('medications', patientId, medicine('Co-trimoxazole', 'J01EE01'))).statusCode).toBe(201);
    const res = await add('allergies', patientId, allergy('Sulfa drugs', 'J01E'));
    expect(res.statusCode).toBe(409);
    expect(res.json().warnings).toEqual([
      expect.objectContaining({
        code: 'MEDICINE_ALLERGY_CONTRAINDICATED',
        params: expect.objectContaining({ substance: 'Sulfa drugs', other: 'Co-trimoxazole' }),
      }),
    ]);
    const stored = await add(
      'allergies',
      patientId,
      allergy('Sulfa drugs', 'J01E'),
      ['MEDICINE_ALLERGY_CONTRAINDICATED'],
      'Recording the allergy; stopping it today',
    );
    expect(stored.statusCode).toBe(201);
  });

  it('warns nothing for a food allergy', async () => {
    const patientId = await newPatient();
    expect((await add('medications', patientId, medicine('Co-trimoxazole', 'J01EE01'))).statusCode).toBe(201);
    const peanut = {
      ...SAMPLE_INPUTS.allergies,
      allergen: 'Peanut',
      code: 'food-peanut',
      codeSystem: 'https://nhr.health.gov.na/fhir/CodeSystem/allergy-substance',
    };
    expect((await add('allergies', patientId, peanut)).statusCode).toBe(201);
  });
});

describe('interactions between medicines', () => {
  it('needs a reason for a contraindicated pair (rifampicin and nevirapine), from the WHO source', async () => {
    const patientId = await newPatient();
    expect((await add('medications', patientId, medicine('Rifampicin', 'J04AB02'))).statusCode).toBe(201);
    const res = await add('medications', patientId, medicine('Nevirapine', 'J05AG01'));
    expect(res.statusCode).toBe(409);
    expect(res.json().warnings).toEqual([
      expect.objectContaining({
        code: 'INTERACTION_CONTRAINDICATED',
        params: expect.objectContaining({
          substance: 'Nevirapine',
          other: 'Rifampicin',
          rule: 'arv-rifampicin-nevirapine',
          source: expect.stringContaining('WHO'),
        }),
      }),
    ]);
  });

  it('asks only for confirm for a serious pair (rifampicin and dolutegravir), and never interrupts for a minor one', async () => {
    const patientId = await newPatient();
    expect((await add('medications', patientId, medicine('Rifampicin', 'J04AB02'))).statusCode).toBe(201);
    const tld = medicine('TLD', 'J05AR27');
    const res = await add('medications', patientId, tld);
    expect(res.statusCode).toBe(409);
    expect(res.json().warnings).toEqual([expect.objectContaining({ code: 'INTERACTION_SERIOUS', tier: 'serious' })]);
    expect((await add('medications', patientId, tld, ['INTERACTION_SERIOUS'])).statusCode).toBe(201);
    expect(await overrides(patientId)).toEqual([expect.objectContaining({ code: 'INTERACTION_SERIOUS', reason: null })]);
    // Efavirenz with rifampicin is minor: stored at once.
    expect((await add('medications', patientId, medicine('Efavirenz', 'J05AG03'))).statusCode).toBe(201);
  });

  it('checks an edit that makes a medicine active again', async () => {
    const patientId = await newPatient();
    expect((await add('medications', patientId, medicine('Rifampicin', 'J04AB02'))).statusCode).toBe(201);
    const nvp = (await add('medications', patientId, { ...medicine('Nevirapine', 'J05AG01'), status: 'Discontinued' })).json();
    const res = await api.edit('medications', nvp.id, { status: 'Active' });
    expect(res.statusCode).toBe(409);
    expect(res.json().warnings[0].code).toBe('INTERACTION_CONTRAINDICATED');
  });
});

describe('bad input and permissions', () => {
  it.each([
    ['overlong', 'x'.repeat(501)],
    ['too short', 'ok'],
    ['a NUL character', 'reason\u0000here'],
  ])('refuses an override reason that is %s with 400, changing nothing', async (_label, reason) => {
    const patientId = await newPatient();
    expect((await add('allergies', patientId, allergy('Penicillin', 'J01C'))).statusCode).toBe(201);
    const before = await auditCount(t);
    const res = await add('medications', patientId, medicine('Amoxicillin', 'J01CA04'), ['MEDICINE_ALLERGY_CONTRAINDICATED'], reason);
    expect(res.statusCode).toBe(400);
    expect(await auditCount(t)).toBe(before);
    expect(await overrides(patientId)).toEqual([]);
  });

  it('stores a hostile-looking but valid reason as text', async () => {
    const patientId = await newPatient();
    expect((await add('allergies', patientId, allergy('Penicillin', 'J01C'))).statusCode).toBe(201);
    const reason = "<script>alert(1)</script>'; DROP TABLE medications; --";
    const res = await add('medications', patientId, medicine('Amoxicillin', 'J01CA04'), ['MEDICINE_ALLERGY_CONTRAINDICATED'], reason);
    expect(res.statusCode).toBe(201);
    expect((await overrides(patientId))[0]!.reason).toBe(reason);
  });

  it('gives 403 to a role without records.write, storing nothing', async () => {
    const patientId = await newPatient();
    const bls = (await signInAs(t, 405)).cookie;
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/patients/${patientId}/medications?confirm=MEDICINE_ALLERGY_CONTRAINDICATED&overrideReason=because%20I%20say`,
      headers: { cookie: bls },
      payload: medicine('Amoxicillin', 'J01CA04'),
    });
    expect(res.statusCode).toBe(403);
    expect(await listed('medications', patientId)).toBe(0);
  });
});
