// The real server behind a component test (decision 027): a test app on its own database, the page's fetch handed to
// it as the user `signIn` returns the session cookie of, a clean document and request log before each test.
//
//   const server = realServer((t) => signInAs(t, ROLE_IDS.doctor).then((s) => s.cookie));
//   it('...', async () => { renderWithApp(<Form />); ...; expect(server.transport.sent).toEqual([]); });
//
// The record's components: `realServerWithRecord()`, a doctor signed in and a patient whose record they may open.
import { cleanup } from '@testing-library/react';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { TestPatient } from '../../server/test/patient-fixtures';
import { doctorWithRecord } from '../../server/test/record-api';
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

export interface RecordServer extends RealServer {
  /** The patient whose record the doctor may open (consent confirmed; valid from beforeAll on). */
  readonly patient: TestPatient;
  /** The doctor's session cookie, for requests a test makes itself (valid from beforeAll on). */
  readonly cookie: string;
}

/** The real server with a doctor signed in on the page and a new patient whose record the doctor may open. */
export function realServerWithRecord(): RecordServer {
  let doctor: { cookie: string; patient: TestPatient } | undefined;
  const server = realServer(async (t) => {
    doctor = await doctorWithRecord(t);
    return doctor.cookie;
  });
  const signedIn = () => {
    if (!doctor) throw new Error('realServerWithRecord: used before beforeAll');
    return doctor;
  };
  return {
    get t() {
      return server.t;
    },
    get transport() {
      return server.transport;
    },
    get patient() {
      return signedIn().patient;
    },
    get cookie() {
      return signedIn().cookie;
    },
  };
}
