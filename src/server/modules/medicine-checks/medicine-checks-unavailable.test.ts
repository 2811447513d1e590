// Medicine checks cannot fail silently (issue 25 item 5; decision 043): with a malformed knowledge file the health
// endpoint names the problem, the status route says unavailable, and every add that would have been checked answers
// 409 MEDICINE_CHECKS_UNAVAILABLE instead of storing unchecked; confirming that stores it knowingly.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATC_SYSTEM } from '../../../contracts/code-systems';
import { doctorWithRecord, recordApi } from '../../test/record-api';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { createTestApp, type TestApp } from '../../test/test-app';
import { clientConsents, createCdsClient, expectCdsValid } from '../../test/cds-hooks';
import { CATALOGUE_DIR } from '../codes/catalogue-files';
import { KNOWLEDGE_FILES } from './knowledge-files';

let t: TestApp;
let dir: string;
let cookie: string;
let patientId: number;
let api: ReturnType<typeof recordApi>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'nhr-knowledge-'));
  for (const name of Object.values(KNOWLEDGE_FILES)) cpSync(path.join(CATALOGUE_DIR, name), path.join(dir, name));
  const file = path.join(dir, KNOWLEDGE_FILES.interactions);
  writeFileSync(file, readFileSync(file, 'utf8').replace('\tserious\t', '\tsevere-ish\t'));
  t = await createTestApp({ medicineKnowledgeDir: dir });
  const doctor = await doctorWithRecord(t);
  ({ cookie } = doctor);
  patientId = doctor.patient.id;
  api = recordApi(t, cookie);
});
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

const amoxicillin = { ...SAMPLE_INPUTS.medications, name: 'Amoxicillin', code: 'J01CA04', codeSystem: ATC_SYSTEM };

describe('a malformed knowledge file', () => {
  it('is reported by GET /api/health, naming the file and line', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      database: true,
      medicineChecks: {
        available: false,
        version: null,
        problem: expect.stringMatching(/^medicine-interactions\.tsv: line \d+: tier "severe-ish"/),
      },
    });
    expect(res.json().medicineChecks.problem).not.toContain(dir); // no server paths
  });

  it('makes the status route answer unavailable', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/medicine-checks/status', headers: { cookie } });
    expect(res.json()).toMatchObject({ available: false, version: null });
  });

  it('makes a coded medicine add answer 409 MEDICINE_CHECKS_UNAVAILABLE, never a silent pass; confirm stores it knowingly', async () => {
    const res = await api.add('medications', patientId, amoxicillin);
    expect(res.statusCode).toBe(409);
    expect(res.json().warnings).toEqual([expect.objectContaining({ code: 'MEDICINE_CHECKS_UNAVAILABLE', tier: 'serious' })]);
    expect((await api.list('medications', patientId)).json()).toEqual([]);
    expect((await api.add('medications', patientId, amoxicillin, ['MEDICINE_CHECKS_UNAVAILABLE'])).statusCode).toBe(201);
  });

  it('makes a coded drug allergy add answer unavailable too', async () => {
    const res = await api.add('allergies', patientId, { ...SAMPLE_INPUTS.allergies, code: 'J01C', codeSystem: ATC_SYSTEM });
    expect(res.statusCode).toBe(409);
    expect(res.json().warnings.map((w: { code: string }) => w.code)).toEqual(['MEDICINE_CHECKS_UNAVAILABLE']);
  });

  it('makes CDS Hooks patient-view answer a critical card saying so, never an empty answer', async () => {
    const client = await createCdsClient(t, 'Rundu Pharmacy');
    await clientConsents(t, client.token, patientId);
    const res = await t.app.inject({
      method: 'POST',
      url: '/cds-services/nhr-patient-view',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
      payload: {
        hook: 'patient-view',
        hookInstance: '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
        context: { userId: 'Practitioner/1', patientId: String(patientId) },
      },
    });
    expect(res.statusCode).toBe(200);
    const { cards } = expectCdsValid('response', res.json() as { cards: { indicator: string; summary: string; detail: string }[] });
    expect(cards).toEqual([
      expect.objectContaining({ indicator: 'critical', summary: expect.stringMatching(/^Medicine checks are unavailable/) }),
    ]);
    expect(cards[0]!.detail).toMatch(/^medicine-interactions\.tsv: line \d+/);
  });
});
