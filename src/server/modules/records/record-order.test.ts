// The client puts a row it just added into its cached list with contracts/record-order.ts instead of fetching the
// list again (issue 15 item 5); this holds that order to the server's: for every kind, rows added out of order (equal
// dates, an appointment without a time) come back from the API in exactly the order compareRecordRows gives, and
// withRow puts each row back in its place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareRecordRows, withRow } from '../../../contracts/record-order';
import { kindContract, RECORD_KINDS, type RecordKind, type RecordRows } from '../../../contracts/kinds';
import { createPatient, type TestPatient } from '../../test/patient-fixtures';
import { SAMPLE_INPUTS } from '../../test/record-samples';
import { signInAs } from '../../test/staff';
import { createTestApp, type TestApp } from '../../test/test-app';

let t: TestApp;
let cookie: string;
let patient: TestPatient;
beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signInAs(t, 3)).cookie;
  patient = await createPatient(t.db);
  await t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/access`, headers: { cookie }, payload: { consent: true } });
});
afterAll(async () => {
  await t?.close();
});

/** Sample inputs whose sort keys differ and repeat: dates (and for appointments times, one missing). */
function variants(kind: RecordKind): Record<string, unknown>[] {
  const dates = ['2024-05-02', '2023-01-10', '2024-05-02', '2025-02-01'];
  const field = kindContract(kind).order[0]!; // each kind's first sort key is its date
  return dates.map((d, i) => {
    const input: Record<string, unknown> = { ...SAMPLE_INPUTS[kind], [field]: kind === 'vitals' ? `${d}T0${i}:00:00Z` : d };
    if (kind === 'appointments') {
      if (i === 1)
        delete input.time; // an appointment without a time
      else input.time = `${String(i + 7).padStart(2, '0')}:30`;
    }
    return input;
  });
}

describe('the client-side order of a record list', () => {
  it.each(RECORD_KINDS)('is the server order for %s', async (kind) => {
    for (const input of variants(kind)) {
      const res = await t.app.inject({ method: 'POST', url: `/api/patients/${patient.id}/${kind}`, headers: { cookie }, payload: input });
      expect(res.statusCode, res.body).toBe(201);
    }
    const list = (
      await t.app.inject({ method: 'GET', url: `/api/patients/${patient.id}/${kind}`, headers: { cookie } })
    ).json() as RecordRows[typeof kind][];
    expect(list.length).toBeGreaterThanOrEqual(4);
    expect([...list].sort(compareRecordRows(kind))).toEqual(list);
    for (const row of list) {
      expect(
        withRow(
          kind,
          list.filter((r) => r !== row),
          row,
        ),
      ).toEqual(list);
    }
  });
});
