import '../test/dom';
// Issue 27 items 3-4: the offline area as the router shows it, with the record's kind views and add forms (app/
// composes them). The PIN first (a wrong one says so and shows nothing); then the kept appointments and patients, the
// search that says it covers only this device; a kept record in the record's words; an add form checked by the kind's
// contract (nothing queued while invalid), a valid entry queued and shown as waiting, never as saved; a patient
// registered offline (the Add Patient check), then an entry for them. The engine is an in-memory one
// (test/offline-engine.ts); nothing here reaches a server, as on a device without network.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import type { RecordRows } from '../../contracts/kinds';
import { OfflineArea } from '../features/offline/components/offline-area';
import { MemoryEngine } from '../test/offline-engine';
import { renderWithApp, switchLanguage } from '../test/render';
import { offlineKit } from './offline-area';

const o = (key: string, options?: Record<string, unknown>) => i18n.t(`offline:${key}`, options);
const r = (key: string) => i18n.t(`record:${key}`);

const allergy = {
  id: 41,
  version: 1,
  patientId: 7,
  allergen: 'Penicillin',
  reaction: 'Rash',
  severity: 'Severe',
  reportedDate: '2026-03-02',
  code: null,
  codeSystem: null,
} as unknown as RecordRows['allergies'];

function seeded(): MemoryEngine {
  return new MemoryEngine({
    pin: '246810',
    appointments: [
      {
        patientId: 7,
        patientName: 'Selma Nangolo',
        idNumber: 'NC-000007',
        appointmentId: 3,
        date: '2026-11-28',
        time: '09:30',
        reason: 'Antenatal visit',
        status: 'Scheduled',
      },
    ],
    patients: [
      {
        patient: {
          id: 7,
          firstName: 'Selma',
          lastName: 'Nangolo',
          idNumber: 'NC-000007',
          dateOfBirth: '1994-05-17',
          sex: 'Female',
          grantExpiresAt: '2026-11-28T16:00:00Z',
        },
        lists: { allergies: [allergy] },
      },
      {
        patient: {
          id: 8,
          firstName: 'Petrus',
          lastName: 'Iipinge',
          idNumber: 'NC-000008',
          dateOfBirth: '1960-01-02',
          sex: 'Male',
          grantExpiresAt: '2026-11-28T16:00:00Z',
        },
      },
    ],
  });
}

function renderArea(engine: MemoryEngine) {
  return renderWithApp(<OfflineArea engine={engine} kit={offlineKit} onSignIn={() => undefined} />);
}

async function unlock(user: ReturnType<typeof userEvent.setup>, pin: string): Promise<void> {
  await user.type(screen.getByLabelText(o('unlock.pin'), { exact: false }), pin);
  await user.click(screen.getByRole('button', { name: o('unlock.submit') }));
}

afterEach(cleanup);

describe('The offline area', () => {
  it('asks for the PIN, says when it is wrong, and then lists what the device keeps (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderArea(seeded());
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
    const engine = seeded();
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
    expect(engine.calls.filter((c) => c.method === 'queueEntry')).toEqual([]);

    await user.type(within(form).getByLabelText(r('fields.allergen'), { exact: false }), 'Grondboontjies');
    await user.type(within(form).getByLabelText(r('fields.reaction'), { exact: false }), 'Swelling');
    await user.type(within(form).getByLabelText(r('fields.reportedDate'), { exact: false }), '01/11/2026');
    await user.click(within(form).getByRole('button', { name: o('record.queue') }));
    expect(await screen.findByRole('heading', { name: o('record.waitingTitle', { count: 1 }) })).toBeTruthy();
    const waiting = screen.getByRole('region', { name: o('record.waitingTitle', { count: 1 }) });
    expect(within(waiting).getByText('Grondboontjies')).toBeTruthy();
    expect(within(waiting).getByText(o('record.waiting'))).toBeTruthy();
    const queued = engine.calls.filter((c) => c.method === 'queueEntry');
    expect(queued).toHaveLength(1);
    expect(queued[0]!.args.slice(0, 2)).toEqual([{ id: 7 }, 'allergies']);
    expect(queued[0]!.args[2]).toMatchObject({
      allergen: 'Grondboontjies',
      reaction: 'Swelling',
      severity: 'Mild',
      reportedDate: '2026-11-01',
    });
    // The kept list is what the server sent: the queued entry is not in it.
    expect(within(screen.getByRole('region', { name: r('sections.allergies') })).queryByText('Grondboontjies')).toBeNull();
  });

  it('registers a patient only when the Add Patient check passes, then takes an entry for them (Oshiwambo)', async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    const engine = seeded();
    renderArea(engine);
    await unlock(user, '246810');
    await user.click(await screen.findByRole('button', { name: o('area.register') }));
    const form = screen.getByRole('region', { name: o('register.title') });
    await user.click(within(form).getByRole('button', { name: o('register.submit') }));
    expect(await within(form).findByText(i18n.t('validation:firstNameRequired'))).toBeTruthy();
    expect(within(form).getByText(i18n.t('validation:sexRequired'))).toBeTruthy();
    expect(engine.calls.filter((c) => c.method === 'queueRegistration')).toEqual([]);

    await user.type(within(form).getByLabelText(i18n.t('patients:firstName'), { exact: false }), 'Tuyeni');
    await user.type(within(form).getByLabelText(i18n.t('patients:lastName'), { exact: false }), 'Amutenya');
    await user.selectOptions(within(form).getByLabelText(i18n.t('patients:sex'), { exact: false }), 'Female');
    await user.click(within(form).getByRole('button', { name: o('register.submit') }));
    expect(await screen.findByRole('heading', { name: 'Amutenya, Tuyeni' })).toBeTruthy();
    expect(screen.getByText(o('record.provisional'))).toBeTruthy();
    const [registration] = engine.calls.filter((c) => c.method === 'queueRegistration');
    expect(registration!.args[0]).toMatchObject({ firstName: 'Tuyeni', lastName: 'Amutenya', sex: 'Female' });

    await user.click(screen.getByRole('button', { name: r('add.vitals') }));
    const vitals = screen.getByRole('region', { name: r('add.vitals') });
    await user.type(within(vitals).getByLabelText(r('fields.systolic'), { exact: false }), '120');
    await user.type(within(vitals).getByLabelText(r('fields.diastolic'), { exact: false }), '80');
    await user.click(within(vitals).getByRole('button', { name: o('record.queue') }));
    await waitFor(() => expect(engine.calls.filter((c) => c.method === 'queueEntry')).toHaveLength(1));
    const entry = engine.calls.find((c) => c.method === 'queueEntry')!;
    const registered = engine.writes().find((w) => w.write.type === 'patient')!;
    expect(entry.args[0]).toEqual({ clientId: registered.clientId });
    expect(entry.args[2]).toMatchObject({ systolic: 120, diastolic: 80 });
    expect(await screen.findByRole('heading', { name: o('record.waitingTitle', { count: 1 }) })).toBeTruthy();
  });
});
