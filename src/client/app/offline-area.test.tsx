import '../test/dom';
// Issue 27 items 3-4: the offline area as the router shows it, with the record's kind views and add forms (app/
// composes them). The PIN first (a wrong one says so and shows nothing); then the kept appointments and patients, the
// search that says it covers only this device; a kept record in the record's words; an add form checked by the kind's
// contract (nothing queued while invalid), a valid entry queued and shown as waiting, never as saved; a patient
// registered offline (the Add Patient check), then an entry for them. The real engine over a store in memory
// (test/offline-device.ts): switched on and filled from the real server (a doctor's granted records, their facility's
// appointments), then the link is down and the page reloaded, as on a device without network.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../lib/i18n';
import type { OfflineDeviceEngine } from '../features/offline/engine/engine';
import { OfflineArea } from '../features/offline/components/offline-area';
import { createPatient, type TestPatient } from '../../server/test/patient-fixtures';
import { confirmAccess, recordApi } from '../../server/test/record-api';
import { SAMPLE_INPUTS } from '../../server/test/record-samples';
import { offlineClinician, testDevice, type TestDevice } from '../test/offline-device';
import { realServer } from '../test/real-server';
import { renderWithApp, switchLanguage } from '../test/render';
import { offlineKit } from './offline-area';

const o = (key: string, options?: Record<string, unknown>) => i18n.t(`offline:${key}`, options);
const r = (key: string) => i18n.t(`record:${key}`);

let selma: TestPatient;
const server = realServer(async (t) => {
  const { cookie } = await offlineClinician(t);
  selma = await createPatient(t.db, { firstName: 'Selma', lastName: 'Nangolo', dateOfBirth: '1994-05-17', sex: 'Female' });
  const petrus = await createPatient(t.db, { firstName: 'Petrus', lastName: 'Iipinge', dateOfBirth: '1960-01-02', sex: 'Male' });
  await confirmAccess(t, cookie, selma.id);
  await confirmAccess(t, cookie, petrus.id);
  const api = recordApi(t, cookie);
  const allergy = { allergen: 'Penicillin', reaction: 'Rash', severity: 'Severe', reportedDate: '2026-03-02' };
  const today = new Date().toISOString().slice(0, 10);
  // The doctor's facility (createStaffUser's) today: kept offline with the appointments of the next days.
  const appointment = { ...SAMPLE_INPUTS.appointments, status: 'Scheduled', date: today, facility: 'Windhoek Central Hospital' };
  for (const [kind, body] of [
    ['allergies', allergy],
    ['appointments', appointment],
  ] as const) {
    const res = await api.add(kind, selma.id, body);
    if (res.statusCode !== 201) throw new Error(`${kind} not added: ${res.statusCode} ${res.body}`);
  }
  return cookie;
});
const devices: TestDevice[] = [];

/** A device switched on and filled from the server with PIN 246810; then the link is down and the page reloaded. */
async function keptDevice(): Promise<{ engine: OfflineDeviceEngine; device: TestDevice }> {
  const device = testDevice({ online: true });
  devices.push(device);
  await device.engine.enable('Clinic tablet', '246810');
  await device.engine.refresh();
  device.link.set(false);
  server.transport.sent.length = 0;
  const engine = device.reload();
  await engine.ready;
  return { engine, device };
}

function renderArea(engine: OfflineDeviceEngine) {
  return renderWithApp(<OfflineArea engine={engine} kit={offlineKit} onSignIn={() => undefined} />);
}

/** The device's queue as the engine keeps it (each write's clientId is its key in the store). */
async function queued(device: TestDevice) {
  const ids = await device.store.keys('queue');
  const records = await Promise.all(ids.map((clientId) => device.engine.openRecord({ clientId })));
  const registrations = records.filter((rec) => rec !== null);
  return { count: ids.length, registrations };
}

async function unlock(user: ReturnType<typeof userEvent.setup>, pin: string): Promise<void> {
  await user.type(screen.getByLabelText(o('unlock.pin'), { exact: false }), pin);
  await user.click(screen.getByRole('button', { name: o('unlock.submit') }));
}

afterEach(() => {
  cleanup();
  for (const d of devices.splice(0)) d.dispose();
});

describe('The offline area', () => {
  it('asks for the PIN, says when it is wrong, and then lists what the device keeps (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderArea((await keptDevice()).engine);
    expect(screen.getByRole('heading', { level: 1, name: o('area.title') })).toBeTruthy();
    await unlock(user, '111111');
    expect(await screen.findByText(o('unlock.wrongDescription'))).toBeTruthy();
    expect(screen.queryByText('Selma Nangolo', { exact: false })).toBeNull();
    await unlock(user, '246810');
    expect(await screen.findByRole('heading', { name: o('area.appointments') })).toBeTruthy();
    expect(await screen.findByText('Selma Nangolo', { exact: false })).toBeTruthy();
    expect(screen.getByText(o('area.searchScope'))).toBeTruthy();
    expect(await screen.findByText(o('area.found', { count: 2 }))).toBeTruthy();
    await user.type(screen.getByRole('searchbox', { name: o('area.search') }), 'iipinge');
    expect(await screen.findByText(o('area.found', { count: 1 }))).toBeTruthy();
    expect(screen.getByText('Iipinge, Petrus')).toBeTruthy();
  });

  it("shows a kept record in the record's words and queues a valid allergy only, as waiting (Afrikaans)", async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    const { engine } = await keptDevice();
    renderArea(engine);
    await unlock(user, '246810');
    await user.click(await screen.findByRole('button', { name: o('area.openRecordOf', { name: 'Selma Nangolo' }) }));
    expect(await screen.findByRole('heading', { name: 'Nangolo, Selma' })).toBeTruthy();
    const allergies = screen.getByRole('region', { name: r('sections.allergies') });
    expect(within(allergies).getByText('Penicillin')).toBeTruthy();
    expect(within(allergies).getByText(i18n.t('record:severity.Severe'))).toBeTruthy();
    expect(screen.getByRole('heading', { name: o('record.waitingTitle', { count: 0 }) })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: r('add.allergies') }));
    const form = screen.getByRole('region', { name: r('add.allergies') });
    await user.click(within(form).getByRole('button', { name: o('record.queue') }));
    expect(await within(form).findByText(i18n.t('validation:allergenRequired'))).toBeTruthy();
    expect(within(form).getByText(i18n.t('validation:reactionRequired'))).toBeTruthy();
    expect(engine.status().waiting).toBe(0);

    await user.type(within(form).getByLabelText(r('fields.allergen'), { exact: false }), 'Grondboontjies');
    await user.type(within(form).getByLabelText(r('fields.reaction'), { exact: false }), 'Swelling');
    await user.type(within(form).getByLabelText(r('fields.reportedDate'), { exact: false }), '01/11/2026');
    await user.click(within(form).getByRole('button', { name: o('record.queue') }));
    expect(await screen.findByRole('heading', { name: o('record.waitingTitle', { count: 1 }) })).toBeTruthy();
    const waiting = screen.getByRole('region', { name: o('record.waitingTitle', { count: 1 }) });
    expect(within(waiting).getByText('Grondboontjies')).toBeTruthy();
    expect(within(waiting).getByText(o('record.waiting'))).toBeTruthy();
    expect(engine.status().waiting).toBe(1);
    const [entry] = (await engine.openRecord({ id: selma.id }))!.queued;
    expect(entry!.write).toMatchObject({ type: 'entry', kind: 'allergies', patient: { id: selma.id } });
    expect(entry!.write.type === 'entry' && entry!.write.body).toMatchObject({
      allergen: 'Grondboontjies',
      reaction: 'Swelling',
      severity: 'Mild',
      reportedDate: '2026-11-01',
    });
    // The kept list is what the server sent: the queued entry is not in it; nothing reached the server.
    expect(server.transport.sent).toEqual([]);
    expect(within(screen.getByRole('region', { name: r('sections.allergies') })).queryByText('Grondboontjies')).toBeNull();
  });

  it('registers a patient only when the Add Patient check passes, then takes an entry for them (Oshiwambo)', async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    const { engine, device } = await keptDevice();
    renderArea(engine);
    await unlock(user, '246810');
    await user.click(await screen.findByRole('button', { name: o('area.register') }));
    const form = screen.getByRole('region', { name: o('register.title') });
    await user.click(within(form).getByRole('button', { name: o('register.submit') }));
    expect(await within(form).findByText(i18n.t('validation:firstNameRequired'))).toBeTruthy();
    expect(within(form).getByText(i18n.t('validation:sexRequired'))).toBeTruthy();
    expect(engine.status().waiting).toBe(0);

    await user.type(within(form).getByLabelText(i18n.t('patients:firstName'), { exact: false }), 'Tuyeni');
    await user.type(within(form).getByLabelText(i18n.t('patients:lastName'), { exact: false }), 'Amutenya');
    await user.selectOptions(within(form).getByLabelText(i18n.t('patients:sex'), { exact: false }), 'Female');
    await user.click(within(form).getByRole('button', { name: o('register.submit') }));
    expect(await screen.findByRole('heading', { name: 'Amutenya, Tuyeni' })).toBeTruthy();
    expect(screen.getByText(o('record.provisional'))).toBeTruthy();
    expect(screen.getByRole('heading', { name: o('record.waitingTitle', { count: 1 }) })).toBeTruthy();
    const { registrations } = await queued(device);
    expect(registrations).toHaveLength(1);
    const registered = registrations[0]!;
    expect(registered.queued[0]!.write).toMatchObject({
      type: 'patient',
      body: { firstName: 'Tuyeni', lastName: 'Amutenya', sex: 'Female' },
    });

    await user.click(screen.getByRole('button', { name: r('add.vitals') }));
    const vitals = screen.getByRole('region', { name: r('add.vitals') });
    await user.type(within(vitals).getByLabelText(r('fields.systolic'), { exact: false }), '120');
    await user.type(within(vitals).getByLabelText(r('fields.diastolic'), { exact: false }), '80');
    await user.click(within(vitals).getByRole('button', { name: o('record.queue') }));
    await waitFor(() => expect(engine.status().waiting).toBe(2));
    const forThem = (await engine.openRecord({ clientId: registered.provisionalClientId! }))!.queued.filter(
      (q) => q.write.type === 'entry',
    );
    expect(forThem.map((q) => q.write)).toEqual([
      expect.objectContaining({
        kind: 'vitals',
        patient: { clientId: registered.provisionalClientId },
        body: expect.objectContaining({ systolic: 120, diastolic: 80 }),
      }),
    ]);
    // The registration waits too, with the entry for them.
    expect(await screen.findByRole('heading', { name: o('record.waitingTitle', { count: 2 }) })).toBeTruthy();
  });
});
