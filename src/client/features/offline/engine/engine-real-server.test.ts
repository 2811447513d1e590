// The offline engine against the real server's device routes (issue 27, decision 061): a doctor with an authenticator
// app switches offline mode on through the engine, keeps a granted record, queues a registration, an entry for that
// new patient and a vital sign offline, and sync stores each once (sent twice, still once); a refused body needs
// attention and is discarded with a reason, audited with its kind and patient.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createPatient, type TestPatient } from '../../../../server/test/patient-fixtures';
import { confirmAccess } from '../../../../server/test/record-api';
import { SAMPLE_INPUTS } from '../../../../server/test/record-samples';
import { enrolTotp, grantPermission } from '../../../../server/test/offline-fixtures';
import { queryOne } from '../../../../server/test/sql';
import { createStaffUser, signIn } from '../../../../server/test/staff';
import { createTestApp, type TestApp } from '../../../../server/test/test-app';
import { installAppTransport, type AppTransport } from '../../../test/app-transport';
import type { DeviceFlag } from '../device-flag';
import { OfflineDeviceEngine, type NetworkWatch } from './engine';
import { MemoryStore } from './memory-store';

let t: TestApp;
let transport: AppTransport;
let patient: TestPatient;

beforeAll(async () => {
  t = await createTestApp();
  const user = await createStaffUser(t.db, { roleId: 3 });
  await grantPermission(t, user.id, 'patients.create');
  const cookie = await signIn(t.app, user.email, user.password);
  await enrolTotp(t, cookie, t.config.now());
  patient = await createPatient(t.db, { firstName: 'Ndilimeke', lastName: 'Shaanika' });
  await confirmAccess(t, cookie, patient.id);
  transport = installAppTransport(t.app, cookie);
});
afterAll(async () => {
  transport?.restore();
  await t?.close();
});

const count = async (table: string, where = sql`true`): Promise<number> =>
  (await queryOne<{ n: number }>(t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`))!.n;

describe('offline engine with the real device routes', () => {
  it('enables, keeps the record, syncs each write once, and discards a refused one', async () => {
    let online = false;
    const listeners = new Set<() => void>();
    const network: NetworkWatch = { online: () => online, subscribe: (l) => (listeners.add(l), () => listeners.delete(l)) };
    let flag: DeviceFlag | null = null;
    const store = new MemoryStore();
    const make = () =>
      new OfflineDeviceEngine({
        store,
        network,
        fetch: (input, init) => globalThis.fetch(input, init),
        flag: { read: () => flag, set: (f) => (flag = f), clear: () => (flag = null) },
        pinIterations: 1_000,
        retryBaseMs: 3_600_000,
      });
    const engine = make();
    await engine.enable('Ward tablet', '482913');
    await engine.refresh();
    expect((await engine.searchPatients('Shaan')).map((p) => p.id)).toEqual([patient.id]);

    const reg = await engine.queueRegistration({
      firstName: 'Johanna',
      lastName: 'Nangolo',
      sex: 'Female',
      dateOfBirth: '1990-01-02',
      contactNumber: '',
      address: '',
      nextOfKin: '',
      nextOfKinContact: '',
    });
    await engine.queueEntry({ clientId: reg.clientId }, 'allergies', SAMPLE_INPUTS.allergies);
    await engine.queueEntry({ id: patient.id }, 'vitals', SAMPLE_INPUTS.vitals);
    const bad = await engine.queueEntry({ id: patient.id }, 'vitals', { systolic: 'high' });
    await engine.openRecord({ id: patient.id });
    const vitalsBefore = await count('vitals');

    online = true;
    await engine.syncNow();
    expect(engine.status().waiting).toBe(1);
    expect(engine.status().attention).toEqual([
      expect.objectContaining({ clientId: bad.clientId, state: 'needs_attention', code: 'VALIDATION_FAILED' }),
    ]);
    expect(await count('vitals')).toBe(vitalsBefore + 1);
    expect(await count('patients', sql`first_name = 'Johanna' AND last_name = 'Nangolo'`)).toBe(1);
    expect(await store.keys('access')).toEqual([]);

    // The same writes again (a reload mid-sync): stored once.
    const writes = transport.sent.filter((r) => r.url.endsWith('/sync')).map((r) => r.body);
    for (const body of writes)
      await globalThis.fetch(`/api/devices/${engine.status().deviceId}/sync`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(await count('vitals')).toBe(vitalsBefore + 1);
    expect(await count('patients', sql`first_name = 'Johanna' AND last_name = 'Nangolo'`)).toBe(1);

    await engine.discard(bad.clientId, 'Typed in the wrong field');
    expect(engine.status()).toMatchObject({ waiting: 0, attention: [] });
    // The discard is audited with what the write was and whose record it was for.
    const audit = await queryOne<{ patientId: number; kind: string }>(
      t.db,
      sql`SELECT patient_id AS "patientId", new_values->>'kind' AS kind FROM audit_logs
          WHERE resource_type = 'DEVICE' AND action = 'DELETE' AND new_values->>'discarded' = ${bad.clientId}`,
    );
    expect(audit).toEqual({ patientId: patient.id, kind: 'vitals' });
    engine.dispose();
  });
});
