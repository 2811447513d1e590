import pg from 'pg';
import { buildApp } from '../../src/server/app';
import { openDatabase } from '../../src/server/db/client';
import { createStaffUser, signIn } from '../../src/server/test/staff';
import { testConfig } from '../../src/server/test/test-app';
const orig = pg.Pool.prototype.query;
let log = false;
(pg.Pool.prototype as any).query = function (this: any, c: any, v: any) {
  if (log && c && c.name) console.log(c.name, 'params', v?.length, 'bytes', JSON.stringify(v).length, 'text', c.text.length, '\n', JSON.stringify(v));
  return orig.call(this, c, v);
};
const handle = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/nhr_match3m', poolSize: 2 });
const app = await buildApp({ db: handle.db, config: testConfig(), logger: false });
const d = await createStaffUser(handle.db, { roleId: 3, lastName: 'Bench' });
const cookie = await signIn(app, d.email, d.password);
for (let i = 0; i < 2; i++) {
  log = i === 1;
  const r = await app.inject({ method: 'POST', url: '/api/patients/search', headers: { cookie, 'content-type': 'application/json' }, payload: { method: 'id-number', idNumber: '85010112345' } });
  if (log) console.log(r.statusCode, r.headers, r.body.slice(0, 300));
}
await app.close(); await handle.close();
