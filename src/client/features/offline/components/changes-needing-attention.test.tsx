import '../../../test/dom';
// Issue 27 item 6: the changes the server refused. Each shows what it was, for whom, and the refusal's code in the
// user's language; Retry hands it back to the engine; Discard asks for a reason (checked by the server's contract:
// none, nothing discarded) and then drops it. The real engine over a store in memory and the real server, which
// refuses each write for a real cause (test/offline-device.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { sql } from 'drizzle-orm';
import i18n from '../../../lib/i18n';
import { createPatient } from '../../../../server/test/patient-fixtures';
import { confirmAccess } from '../../../../server/test/record-api';
import { SAMPLE_INPUTS } from '../../../../server/test/record-samples';
import { queryOne } from '../../../../server/test/sql';
import { offlineClinician, testDevice, type TestDevice } from '../../../test/offline-device';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { ChangesNeedingAttention } from './changes-needing-attention';

const a = (key: string, options?: Record<string, unknown>) => i18n.t(`offline:attention.${key}`, options);
let cookie = '';
const server = realServer(async (t) => (cookie = (await offlineClinician(t)).cookie));
const devices: TestDevice[] = [];

afterEach(() => {
  cleanup();
  for (const d of devices.splice(0)) d.dispose();
});

/** A device switched on, with nothing queued. */
async function enabledDevice(): Promise<TestDevice> {
  const d = testDevice({ online: true });
  devices.push(d);
  await d.engine.enable('Clinic tablet', '123456');
  await d.engine.refresh();
  return d;
}

/**
 * A device with two writes the server refused: an allergy for a patient the doctor holds no grant to
 * (OFFLINE_NO_GRANT), and a registration with a date of birth in the future (VALIDATION_FAILED).
 */
async function deviceWithRefusals() {
  const d = await enabledDevice();
  const stranger = await createPatient(server.t.db, { firstName: 'Selma', lastName: 'Nangolo' });
  d.link.set(false);
  const allergy = await d.engine.queueEntry({ id: stranger.id }, 'allergies', SAMPLE_INPUTS.allergies);
  const registration = await d.engine.queueRegistration({
    firstName: 'Tuyeni',
    lastName: 'Amutenya',
    sex: 'Female',
    dateOfBirth: '2999-01-01',
    contactNumber: '',
    address: '',
    nextOfKin: '',
    nextOfKinContact: '',
  });
  d.link.set(true);
  await d.engine.syncNow();
  expect(
    d.engine
      .status()
      .attention.map((q) => q.code)
      .sort(),
  ).toEqual(['OFFLINE_NO_GRANT', 'VALIDATION_FAILED']);
  return { engine: d.engine, stranger, allergy, registration };
}

const sentTo = (path: string) => server.transport.sent.filter((r) => r.url.endsWith(path));

describe('Changes that need attention', () => {
  it("lists each refused change with its code's text, and retries one (English)", async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { engine, stranger, allergy } = await deviceWithRefusals();
    renderWithApp(<ChangesNeedingAttention engine={engine} />);
    expect(screen.getByRole('heading', { name: a('title') })).toBeTruthy();
    expect(screen.getByText(a('intro', { count: 2 }))).toBeTruthy();
    expect(screen.getByText(i18n.t('common:errors.OFFLINE_NO_GRANT'))).toBeTruthy();
    expect(screen.getByText(i18n.t('common:errors.VALIDATION_FAILED'))).toBeTruthy();
    // The patient consents meanwhile: the same write sent again is stored.
    await confirmAccess(server.t, cookie, stranger.id);
    server.transport.sent.length = 0;
    const what = `${i18n.t('offline:kinds.allergies')} · #${stranger.id}`;
    await user.click(screen.getByRole('button', { name: a('retryLabel', { what }) }));
    // Stored: it left the queue (only the registration waits), and its refusal is gone from the list.
    await waitFor(() => expect(engine.status()).toMatchObject({ waiting: 1, syncing: null }));
    await waitFor(() => expect(screen.queryByText(i18n.t('common:errors.OFFLINE_NO_GRANT'))).toBeNull());
    expect(sentTo('/sync').map((r) => (r.body as { writes: { clientId: string }[] }).writes.map((w) => w.clientId))).toEqual([
      [allergy.clientId],
    ]);
    const stored = await queryOne<{ n: number }>(
      server.t.db,
      sql`SELECT count(*)::int AS n FROM allergies WHERE patient_id = ${stranger.id}`,
    );
    expect(stored).toEqual({ n: 1 });
    expect(screen.getByText(a('intro', { count: 1 }))).toBeTruthy();
  });

  it('discards only with a reason (Afrikaans)', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    const { engine, registration } = await deviceWithRefusals();
    server.transport.sent.length = 0;
    renderWithApp(<ChangesNeedingAttention engine={engine} />);
    const what = `${i18n.t('offline:kinds.patient')} · Tuyeni Amutenya`;
    await user.click(screen.getByRole('button', { name: a('discardLabel', { what }) }));
    const dialog = await screen.findByRole('dialog', { name: a('discardTitle') });
    await user.click(within(dialog).getByRole('button', { name: a('discard') }));
    expect(await within(dialog).findByText(i18n.t('validation:discardReasonRequired'))).toBeTruthy();
    await user.type(within(dialog).getByLabelText(a('reason'), { exact: false }), '   ');
    await user.click(within(dialog).getByRole('button', { name: a('discard') }));
    expect(within(dialog).getByText(i18n.t('validation:discardReasonRequired'))).toBeTruthy();
    expect(sentTo('/discard')).toEqual([]);
    await user.type(within(dialog).getByLabelText(a('reason'), { exact: false }), 'Reeds aanlyn geregistreer');
    await user.click(within(dialog).getByRole('button', { name: a('discard') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sentTo('/discard').map((r) => [r.body, r.status])).toEqual([
      [{ clientId: registration.clientId, reason: 'Reeds aanlyn geregistreer', kind: 'patient' }, 204],
    ]);
    expect(screen.queryByText('Tuyeni Amutenya', { exact: false })).toBeNull();
    expect(engine.status().attention.map((q) => q.clientId)).not.toContain(registration.clientId);
  });

  it('says when nothing needs attention (Oshiwambo)', async () => {
    await switchLanguage('ng');
    renderWithApp(<ChangesNeedingAttention engine={(await enabledDevice()).engine} />);
    expect(screen.getByText(a('none'))).toBeTruthy();
  });
});
