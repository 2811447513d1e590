import { describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { loadConfig } from './config';
import { createTestDatabase } from './test/test-database';
import { testConfig } from './test/test-app';

describe('TRUST_PROXY', () => {
  it('is off by default and accepts true, a hop count or a list of addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.0.0.2' }).trustProxy).toEqual(['10.0.0.1', '10.0.0.2']);
    const hops = loadConfig({ TRUST_PROXY: '1' }).trustProxy as (a: string, hop: number) => boolean;
    expect([hops('x', 0), hops('x', 1)]).toEqual([true, false]);
  });

  it('makes request.ip the client behind one proxy, and ignores forwarded headers without it', async () => {
    const database = await createTestDatabase();
    const ipOf = async (trustProxy: ReturnType<typeof loadConfig>['trustProxy']): Promise<string> => {
      const app = await buildApp({ db: database.handle.db, config: testConfig({ trustProxy }) });
      app.get('/api/probe/ip', async (request) => ({ ip: request.meta.ip }));
      try {
        const res = await app.inject({
          method: 'GET',
          url: '/api/probe/ip',
          remoteAddress: '10.0.0.1',
          headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.7' },
        });
        return res.json().ip;
      } finally {
        await app.close();
      }
    };
    try {
      expect(await ipOf(false)).toBe('10.0.0.1');
      expect(await ipOf(loadConfig({ TRUST_PROXY: '1' }).trustProxy)).toBe('198.51.100.7');
    } finally {
      await database.dispose();
    }
  });
});

describe('JOIN_SECOND_REVIEW_ROWS', () => {
  it('is 50 by default, takes a whole number of 1 or more and refuses anything else', () => {
    expect(loadConfig({}).join.secondReviewRows).toBe(50);
    expect(loadConfig({ JOIN_SECOND_REVIEW_ROWS: '200' }).join.secondReviewRows).toBe(200);
    for (const bad of ['0', '-3', '2.5', 'many'])
      expect(() => loadConfig({ JOIN_SECOND_REVIEW_ROWS: bad })).toThrow(/JOIN_SECOND_REVIEW_ROWS/);
  });
});
