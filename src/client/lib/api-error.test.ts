// The api client's error: status, code, issues and details read from the body; SPEC §7's message kept.
import { describe, expect, it } from 'vitest';
import { apiErrorOf, errorCodeOf, retryUnlessRefused } from './api-error';

describe('ApiError', () => {
  it('carries the status, code, issues and the other body fields', async () => {
    const body = JSON.stringify({
      message: 'This patient may already be registered',
      code: 'DUPLICATE_PATIENT',
      duplicates: [{ id: 1 }],
      issues: [{ path: 'lastName', message: 'validation:required' }, { bad: true }],
    });
    const error = await apiErrorOf(new Response(body, { status: 409 }));
    expect(error).toMatchObject({ status: 409, code: 'DUPLICATE_PATIENT', details: { duplicates: [{ id: 1 }] } });
    expect(error.issues).toEqual([{ path: 'lastName', message: 'validation:required' }]);
    expect(error.message).toBe(`409: ${body}`);
  });

  it('has no code for a body that is not ours', async () => {
    const error = await apiErrorOf(new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(error.code).toBeNull();
    expect(errorCodeOf(error)).toBeNull();
    const unknown = await apiErrorOf(new Response('{"code":"SOMETHING_NEW"}', { status: 400 }));
    expect(unknown.code).toBeNull();
  });

  it('retries server failures twice and refusals never', async () => {
    const refused = await apiErrorOf(new Response('{"code":"ACCESS_GRANT_REQUIRED"}', { status: 403 }));
    const failed = await apiErrorOf(new Response('{"code":"INTERNAL"}', { status: 500 }));
    expect(retryUnlessRefused(0, refused)).toBe(false);
    expect([retryUnlessRefused(0, failed), retryUnlessRefused(1, failed), retryUnlessRefused(2, failed)]).toEqual([true, true, false]);
    expect(retryUnlessRefused(0, new TypeError('Failed to fetch'))).toBe(true);
  });
});
