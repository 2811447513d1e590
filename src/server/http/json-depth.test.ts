// The nesting-depth refusal (issue 21 item 6) on one public route and one FHIR route, and the depth scan itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { signInAs } from '../test/staff';
import { jsonDeeperThan, MAX_JSON_DEPTH } from './json-depth';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const nested = (levels: number): string => `${'['.repeat(levels)}1${']'.repeat(levels)}`;

describe('jsonDeeperThan', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDeeperThan(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDeeperThan(JSON.stringify({ a: '['.repeat(500), b: '\\"[[[[' }))).toBe(false);
    expect(jsonDeeperThan(`{"a":${'{"b":'.repeat(40)}1${'}'.repeat(40)}}`)).toBe(true);
  });
});

describe('deeply nested request bodies', () => {
  it('signed out, a sign-in body nested 4,000 levels is a 400 JSON_TOO_DEEP; an ordinary one still reaches the route', async () => {
    const deep = `{"email":"a@b.test","password":${nested(4000)}}`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: deep,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'JSON_TOO_DEEP' });
    const shallow = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: 'nobody@health.test.na', password: 'wrong password here' },
    });
    expect(shallow.statusCode).toBe(401);
  });

  it('application/fhir+json nested too deeply is a 400 OperationOutcome', async () => {
    const { cookie } = await signInAs(t, 3);
    const res = await t.app.inject({
      method: 'POST',
      url: '/fhir/R4/Patient/$match',
      payload: `{"resourceType":"Parameters","parameter":${nested(4000)}}`,
      headers: { cookie, 'content-type': 'application/fhir+json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ resourceType: 'OperationOutcome' });
    expect(res.body).toContain('nested too deeply');
  });
});
