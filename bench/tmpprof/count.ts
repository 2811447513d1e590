import pg from 'pg';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { createStaffUser, signIn } from '../../src/server/test/staff';
import { testConfig } from '../../src/server/test/test-app';
import { randomUUID } from 'node:crypto';
const orig = pg.Client.prototype.query;
let log = false;
(pg.Client.prototype as any).query = function (this: any, c: any, v: any, cb: any) {
  if (log) console.log('  Q', typeof c === 'string' ? c.slice(0, 90) : (c?.name ?? '') + ' ' + String(c?.text ?? '').replace(/\s+/g, ' ').slice(0, 90));
  return orig.call(this, c, v, cb);
};
const handle = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/nhr_match3m', poolSize: 2 });
const app = await buildApp({ db: handle.db, config: testConfig(), logger: false });
const d = await createStaffUser(handle.db, { roleId: 3, lastName: 'Bench' });
const cookie = await signIn(app, d.email, d.password);
const h = { cookie, 'content-type': 'application/json' };
console.log((await app.inject({ method: 'POST', url: '/api/patients/5/access', headers: h, payload: { consent: true } })).statusCode);
log = true; console.log('--- grant');
console.log((await app.inject({ method: 'POST', url: '/api/patients/6/access', headers: h, payload: { consent: true } })).statusCode);
log = false;
const body = { condition: 'Load test entry', status: 'Active', diagnosedDate: '2026-11-28', resolvedDate: '', description: 'load', doctor: 'Dr. Load', facility: 'Load Clinic' };
for (let i = 0; i < 2; i++) {
  log = i === 1;
  if (log) console.log('--- add');
  const r = await app.inject({ method: 'POST', url: '/api/patients/5/diagnoses', headers: { ...h, 'idempotency-key': randomUUID() }, payload: body });
  if (log) console.log(r.statusCode);
}
log = true; console.log('--- open');
console.log((await app.inject({ method: 'GET', url: '/api/patients/5/record-summary', headers: h })).statusCode);
await app.close(); await handle.close();
