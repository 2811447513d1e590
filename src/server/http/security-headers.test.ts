// The document security headers are worked out once (security-headers.ts) and go with every answer: a success, a
// refusal, an error raised before the route ran, an unknown route, a request another hook refused. Through the real app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/test-app';
import { securityHeadersOf } from './security-headers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Helmet's headers, as the app sends them (HSTS only in production). */
const HELMET_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-content-type-options',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
];

describe('the security headers', () => {
  it("are Helmet's, read once from its middleware", () => {
    const headers = securityHeadersOf({ contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'self'"] } } });
    expect(Object.keys(headers).sort()).toEqual([...HELMET_HEADERS, 'strict-transport-security'].sort());
    expect(headers['content-security-policy']).toBe("default-src 'self'");
    expect(Object.isFrozen(headers)).toBe(true);
    expect(securityHeadersOf({ hsts: false })).not.toHaveProperty('strict-transport-security');
  });

  it.each([
    ['a success', 'GET', '/api/health', undefined, 200],
    ['a signed-out request', 'POST', '/api/patients/search', { method: 'id-number', idNumber: '12345678901' }, 401],
    ['a body that is not JSON', 'POST', '/api/auth/login', '{"email":', 400],
    ['an unknown route', 'GET', '/api/no-such-thing', undefined, 404],
    ['a request from another site (refused by the CSRF guard, a later hook)', 'POST', '/api/auth/logout', '{}', 403],
  ] as const)('go with %s', async (_, method, url, body, status) => {
    const res = await t.app.inject({
      method,
      url,
      ...(body === undefined ? {} : { payload: body }),
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(status === 403 ? { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } : {}),
      },
    });
    expect(res.statusCode).toBe(status);
    for (const name of HELMET_HEADERS) expect(res.headers, name).toHaveProperty(name);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
