// The real server behind a component test (decision 027): a test app on its own database, the page's fetch handed to
// it as the user `signIn` returns the session cookie of, a clean document and request log before each test.
//
//   const server = realServer((t) => signInAs(t, ROLE_IDS.doctor).then((s) => s.cookie));
//   it('...', async () => { renderWithApp(<Form />); ...; expect(server.transport.sent).toEqual([]); });
import { cleanup } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createTestApp, type TestApp } from '../../server/test/test-app';
import { installAppTransport, type AppTransport } from './app-transport';

export interface RealServer {
  /** The app and its database (valid from beforeAll on). */
  readonly t: TestApp;
  /** What the page sent, cleared before each test. */
  readonly transport: AppTransport;
}

export function realServer(signIn: (t: TestApp) => Promise<string>): RealServer {
  let t: TestApp | undefined;
  let transport: AppTransport | undefined;
  beforeAll(async () => {
    t = await createTestApp();
    transport = installAppTransport(t.app, await signIn(t));
  });
  afterAll(async () => {
    transport?.restore();
    await t?.close();
  });
  beforeEach(() => {
    cleanup();
    if (transport) transport.sent.length = 0;
  });
  return {
    get t() {
      if (!t) throw new Error('realServer: used before beforeAll');
      return t;
    },
    get transport() {
      if (!transport) throw new Error('realServer: used before beforeAll');
      return transport;
    },
  };
}
