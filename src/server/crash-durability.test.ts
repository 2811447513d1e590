// kill -9 during writes (issue 11: "the crash test still loses nothing"). The real server runs in its own process on
// the database a fresh install would use (PGlite in a data folder; PostgreSQL when DATABASE_URL is set) while four
// clients add diagnoses and grants; the server is killed with SIGKILL mid-stream. Afterwards every write the server
// acknowledged is there with its audit row, the audit chains verify, and the server starts again on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { ROLE_IDS } from '../contracts/constants';
import { verifyAuditChain } from './audit/audit-verify';
import { openDatabase, type DatabaseHandle } from './db/client';
import { createScratchDatabase, type ScratchDatabase } from './db/scratch-database';
import { createPatient, type TestPatient } from './test/patient-fixtures';
import { SAMPLE_INPUTS } from './test/record-samples';
import { queryRows } from './test/sql';
import { createStaffUser } from './test/staff';

const dataDir = mkdtempSync(path.join(tmpdir(), 'nhr-crash-'));
const clientDir = mkdtempSync(path.join(tmpdir(), 'nhr-crash-client-'));
writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>crash test</title>');
let scratch: ScratchDatabase | undefined;

afterAll(async () => {
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(clientDir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const a = probe.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const open = (): Promise<DatabaseHandle> => openDatabase(scratch ? { databaseUrl: scratch.url, poolSize: 2 } : { dataDir });

async function startServer(): Promise<{ child: ChildProcess; base: string; output: () => string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url ?? '',
      CLIENT_DIR: clientDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, base, output: () => output };
    if (Date.now() > deadline) throw new Error(`the server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('kill -9 during writes', () => {
  it('loses no acknowledged write or audit row, and the server starts again on the same data', async () => {
    if (process.env.DATABASE_URL) scratch = await createScratchDatabase(process.env.DATABASE_URL, 'nhr_crash');
    // The database as a deployment has it: migrated, a doctor, patients.
    const setup = await open();
    await setup.migrate();
    const doctor = await createStaffUser(setup.db, { roleId: ROLE_IDS.doctor });
    const patients: TestPatient[] = [];
    for (let i = 0; i < 40; i++) patients.push(await createPatient(setup.db));
    await setup.close();

    const server = await startServer();
    const login = await fetch(`${server.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: doctor.email, password: doctor.password }),
    });
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('nhr_sid='))!
      .split(';')[0]!;
    const post = (url: string, body: object) =>
      fetch(`${server.base}${url}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    const acknowledged = { diagnoses: [] as number[], grants: [] as number[] };
    let stop = false;
    const client = async (n: number): Promise<void> => {
      for (let i = n; !stop; i += 4) {
        const patient = patients[i % patients.length]!;
        try {
          const granted = await post(`/api/patients/${patient.id}/access`, { consent: true });
          if (granted.status === 201) acknowledged.grants.push(((await granted.json()) as { id: number }).id);
          const added = await post(`/api/patients/${patient.id}/diagnoses`, { ...SAMPLE_INPUTS.diagnoses, condition: `Crash test ${i}` });
          if (added.status === 201) acknowledged.diagnoses.push(((await added.json()) as { id: number }).id);
        } catch {
          return; // the server is gone
        }
      }
    };
    const clients = [0, 1, 2, 3].map(client);
    while (acknowledged.diagnoses.length < 60) await new Promise((r) => setTimeout(r, 20));
    const exited = new Promise((r) => server.child.once('exit', r));
    server.child.kill('SIGKILL');
    await exited;
    stop = true;
    await Promise.all(clients);

    const after = await open();
    try {
      const diagnoses = await queryRows<{ id: number }>(after.db, sql`SELECT id FROM diagnoses`);
      const stored = new Set(diagnoses.map((d) => d.id));
      expect(acknowledged.diagnoses.filter((id) => !stored.has(id))).toEqual([]);
      const grants = new Set((await queryRows<{ id: number }>(after.db, sql`SELECT id FROM access_grants`)).map((g) => g.id));
      expect(acknowledged.grants.filter((id) => !grants.has(id))).toEqual([]);
      // Every stored diagnosis (acknowledged or not) has its CREATE row, and every stored grant its VIEW row.
      const created = new Set(
        (
          await queryRows<{ id: string }>(
            after.db,
            sql`SELECT resource_id AS id FROM audit_logs WHERE action = 'CREATE' AND resource_type = 'DIAGNOSIS'`,
          )
        ).map((r) => Number(r.id)),
      );
      expect([...stored].filter((id) => !created.has(id))).toEqual([]);
      const grantRows = new Set(
        (
          await queryRows<{ id: number }>(
            after.db,
            sql`SELECT (new_values->>'grantId')::int AS id FROM audit_logs WHERE new_values ? 'grantId'`,
          )
        ).map((r) => r.id),
      );
      expect([...grants].filter((id) => !grantRows.has(id))).toEqual([]);
      expect(await verifyAuditChain(after.db)).toMatchObject({ ok: true });
    } finally {
      await after.close();
    }

    const again = await startServer();
    try {
      expect((await fetch(`${again.base}/api/health`)).status).toBe(200);
    } finally {
      const exited2 = new Promise((r) => again.child.once('exit', r));
      again.child.kill('SIGTERM');
      await exited2;
    }
  }, 400_000);
});
