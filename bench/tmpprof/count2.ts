import pg from 'pg';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { testConfig } from '../../src/server/test/test-app';
import { insertPatient, signInPatient } from '../../src/server/test/portal-fixtures';
import { createStaffUser, signIn } from '../../src/server/test/staff';
const orig = pg.Client.prototype.query;
let log = false;
(pg.Client.prototype as any).query = function (this: any, c: any, v: any, cb: any) {
  if (log) console.log('  Q', typeof c === 'string' ? c.slice(0, 90) : (c?.name ?? '') + ' ' + String(c?.text ?? '').replace(/\s+/g, ' ').slice(0, 60));
  return orig.call(this, c, v, cb);
};
const handle = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/nhr_match3m', poolSize: 2 });
const config = testConfig();
const app = await buildApp({ db: handle.db, config, logger: false });
const p = await insertPatient(handle.db, { firstName: 'Count', lastName: 'Portal', dateOfBirth: '1980-01-01' });
const cookie = await signInPatient({ app, db: handle.db, config }, p);
for (let i = 0; i < 3; i++) {
  log = i >= 1;
  if (log) console.log('--- me', i);
  const r = await app.inject({ method: 'GET', url: '/api/patient-portal/me', headers: { cookie } });
  if (log) console.log(r.statusCode);
}
const d = await createStaffUser(handle.db, { roleId: 3, lastName: 'Bench' });
const sc = await signIn(app, d.email, d.password);
await app.inject({ method: 'POST', url: '/api/patients/5/access', headers: { cookie: sc, 'content-type': 'application/json' }, payload: { consent: true } });
for (let i = 0; i < 3; i++) {
  log = i >= 1;
  if (log) console.log('--- open', i);
  const r = await app.inject({ method: 'GET', url: '/api/patients/5/record-summary', headers: { cookie: sc } });
  if (log) console.log(r.statusCode);
}
await app.close(); await handle.close();
