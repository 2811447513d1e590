// The catalogue test (issue 24 item 8, decision 048): every column of the database that refers to a patient, read
// from the database's own catalogue (foreign keys to patients, and integer columns whose name says "patient"), must
// be in the declared list join and undo are driven by (patient-references.ts), and the list may name no column that
// is gone. Then a join and its undo over a row of every table the list moves: each moves and comes back exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { ROLE_IDS } from '../../../contracts/constants';
import { RECORD_KINDS } from '../../../contracts/kinds';
import { openPair } from '../../test/join-fixtures';
import { createPatient } from '../../test/patient-fixtures';
import { confirmAccess, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { queryRows } from '../../test/sql';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';
import { PATIENT_REFERENCES, referencesTreated } from './patient-references';

let t: TestApp;
let admin: string;
let doctor: string;
let doctorId: string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await signInAs(t, ROLE_IDS.admin)).cookie;
  const signedIn = await signInAs(t, ROLE_IDS.doctor);
  doctor = signedIn.cookie;
  doctorId = signedIn.user.id;
});
afterAll(async () => {
  await t?.close();
});

const named = (r: { table: string; column: string }) => `${r.table}.${r.column}`;

describe('the declared list of patient references', () => {
  it('covers every column the database’s catalogue says refers to a patient, and names none that is gone', async () => {
    const referring = await queryRows<{ name: string }>(
      t.db,
      sql`SELECT c.conrelid::regclass::text || '.' || a.attname AS name
            FROM pg_constraint AS c JOIN pg_attribute AS a ON a.attrelid = c.conrelid AND a.attnum = ANY(c.conkey)
           WHERE c.contype = 'f' AND c.confrelid = 'patients'::regclass
          UNION
          SELECT table_name || '.' || column_name FROM information_schema.columns
           WHERE table_schema = 'public' AND data_type IN ('integer', 'bigint', 'smallint') AND column_name LIKE '%patient%'
             -- A month's partition of audit_logs (decision 057) has the columns of audit_logs, declared once.
             AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)`,
    );
    const declared = new Set(PATIENT_REFERENCES.map(named));
    const missing = referring.map((r) => r.name.replace(/^public\./, '')).filter((name) => !declared.has(name));
    expect(missing, 'columns that refer to a patient but are not in patient-references.ts').toEqual([]);
    expect(referring.length).toBeGreaterThan(15);

    const columns = new Set(
      (
        await queryRows<{ name: string }>(
          t.db,
          sql`SELECT table_name || '.' || column_name AS name FROM information_schema.columns WHERE table_schema = 'public'`,
        )
      ).map((r) => r.name),
    );
    expect(
      PATIENT_REFERENCES.map(named).filter((name) => !columns.has(name)),
      'declared columns that do not exist',
    ).toEqual([]);
    // Moved and keyed rows are recorded by their primary key: the declared key must be the table's primary key.
    for (const ref of referencesTreated('moved', 'keyed')) {
      const [pk] = await queryRows<{ key: string[] }>(
        t.db,
        sql`SELECT array_agg(a.attname::text ORDER BY a.attname) AS key FROM pg_index AS i
              JOIN pg_attribute AS a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
             WHERE i.indrelid = ${ref.table}::regclass AND i.indisprimary`,
      );
      expect(pk?.key, ref.table).toEqual([...(ref.key ?? [])].sort());
    }
  });
});

/** A row of each table the join moves, for `patientId` (the record kinds' rows, their versions and the grant come from the API). */
const SEEDS: Record<string, (patientId: number) => SQL> = {
  medicine_check_overrides: (p) =>
    sql`INSERT INTO medicine_check_overrides (patient_id, kind, item_id, item_version, code, tier, params, user_id, by_name, at)
        VALUES (${p}, 'medications', 1, 1, 'ALLERGY_MATCH', 'warning', '{}'::jsonb, ${doctorId}, 'Dr. Probe', now())`,
  webauthn_credentials: (p) =>
    sql`INSERT INTO webauthn_credentials (id, patient_id, public_key, name) VALUES (${`cred-${p}`}, ${p}, 'pk', 'Phone')`,
  webauthn_challenges: (p) =>
    sql`INSERT INTO webauthn_challenges (challenge, purpose, patient_id, created_at, expires_at)
        VALUES (${`challenge-${p}`}, 'sign_in', ${p}, now(), now() + interval '5 minutes')`,
  patient_portal_credentials: (p) =>
    sql`INSERT INTO patient_portal_credentials (patient_id, pin_hash, pin_set_at) VALUES (${p}, ${`hash-${p}`}, now())`,
  search_volume: (p) => sql`INSERT INTO search_volume (user_id, patient_id, last_seen) VALUES (${doctorId}, ${p}, now())`,
  offline_registrations: (p) =>
    sql`INSERT INTO offline_registrations (user_id, client_id, patient_id, device_id, device_time, created_at)
        VALUES (${doctorId}, gen_random_uuid(), ${p}, gen_random_uuid(), now(), now())`,
  offline_reviews: (p) =>
    sql`INSERT INTO offline_reviews (reason, patient_id, user_id, client_id, device_id, device_time, created_at)
        VALUES ('POSSIBLE_DUPLICATE_PATIENT', ${p}, ${doctorId}, gen_random_uuid(), gen_random_uuid(), now(), now())`,
};
const FROM_THE_API = new Set(['record_versions', 'access_grants']);

/**
 * Every row of each moved table that points at the patient, as JSON text, in a stable order; but change_xid, the
 * transaction that last wrote the row, which a move changes on purpose (offline copies fetch the moved rows again).
 */
async function rowsPointingAt(patientId: number): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const ref of referencesTreated('moved', 'keyed')) {
    const found = await queryRows<{ row: string }>(
      t.db,
      sql`SELECT (to_jsonb(x) - 'change_xid')::text AS row FROM ${sql.identifier(ref.table)} AS x WHERE ${sql.identifier(ref.column)} = ${patientId} ORDER BY 1`,
    );
    out[named(ref)] = found.map((r) => r.row);
  }
  return out;
}

describe('join and undo over every table the list moves', () => {
  it('each seeded row of the merged record moves to the survivor and comes back on undo, exactly', async () => {
    const survivor = await createPatient(t.db);
    const merged = await createPatient(t.db);
    await confirmAccess(t, doctor, merged.id);
    for (const kind of RECORD_KINDS) expect((await recordApi(t, doctor).add(kind, merged.id, SAMPLE_INPUTS[kind])).statusCode).toBe(201);
    for (const ref of referencesTreated('moved', 'keyed')) {
      if (FROM_THE_API.has(ref.table) || RECORD_KINDS.some((k) => k.replace('-', '_') === ref.table)) continue;
      const seed = SEEDS[ref.table];
      expect(seed, `a seed row for ${ref.table} (a table the join moves)`).toBeDefined();
      await t.db.execute(seed!(merged.id));
    }
    // The survivor has a portal sign-in and a search row of the same user too: the like of the merged record's.
    await t.db.execute(SEEDS.patient_portal_credentials!(survivor.id));
    await t.db.execute(SEEDS.search_volume!(survivor.id));

    const before = { survivor: await rowsPointingAt(survivor.id), merged: await rowsPointingAt(merged.id) };
    for (const [name, found] of Object.entries(before.merged)) expect(found.length, name).toBeGreaterThan(0);

    const pairId = await openPair(t.db, survivor.id, merged.id);
    const joined = await t.app.inject({
      method: 'POST',
      url: `/api/duplicates/${pairId}/decision`,
      headers: { cookie: admin },
      payload: { decision: 'same', survivorId: survivor.id },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const during = { survivor: await rowsPointingAt(survivor.id), merged: await rowsPointingAt(merged.id) };
    for (const [name, found] of Object.entries(during.merged)) expect(found, name).toEqual([]);
    for (const ref of referencesTreated('moved')) {
      const name = named(ref);
      expect(during.survivor[name]!.length, name).toBe(before.survivor[name]!.length + before.merged[name]!.length);
    }
    // Keyed: the survivor's own portal sign-in and search row stay; the merged record's like were removed (ledger).
    expect(during.survivor['patient_portal_credentials.patient_id']).toEqual(before.survivor['patient_portal_credentials.patient_id']);
    expect(during.survivor['search_volume.patient_id']).toEqual(before.survivor['search_volume.patient_id']);

    const { joinId } = joined.json<{ joinId: number }>();
    const undone = await t.app.inject({
      method: 'POST',
      url: `/api/patient-joins/${joinId}/undo`,
      headers: { cookie: admin },
      payload: { reason: 'Two people after all' },
    });
    expect(undone.statusCode, undone.body).toBe(200);
    expect(await rowsPointingAt(survivor.id)).toEqual(before.survivor);
    expect(await rowsPointingAt(merged.id)).toEqual(before.merged);
  });
});
