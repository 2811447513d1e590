import '../../../test/dom';
// Issue 27 item 6: the changes the server refused. Each shows what it was, for whom, and the refusal's code in the
// user's language; Retry hands it back to the engine; Discard asks for a reason (checked by the server's contract:
// none, nothing discarded) and then drops it. The engine is an in-memory one (test/offline-engine.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import type { QueuedWrite } from '../engine/offline-engine';
import { MemoryEngine } from '../../../test/offline-engine';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { ChangesNeedingAttention } from './changes-needing-attention';

const a = (key: string, options?: Record<string, unknown>) => i18n.t(`offline:attention.${key}`, options);
const ALLERGY = '6f1c1b0e-3c1a-4b7e-9a53-0c2f3c6f1a01';
const PATIENT = '6f1c1b0e-3c1a-4b7e-9a53-0c2f3c6f1a02';

function refused(): QueuedWrite[] {
  const at = '2026-11-28T09:12:00+02:00';
  return [
    {
      clientId: ALLERGY,
      write: {
        type: 'entry',
        clientId: ALLERGY,
        deviceTime: at,
        kind: 'allergies',
        patient: { id: 7 },
        seenCursor: null,
        body: { allergen: 'Penicillin' },
      },
      patientLabel: 'Nangolo, Selma',
      queuedAt: at,
      state: 'needs_attention',
      code: 'PATIENT_NOT_FOUND',
      lastOutcome: 'needs_attention',
    },
    {
      clientId: PATIENT,
      write: {
        type: 'patient',
        clientId: PATIENT,
        deviceTime: at,
        body: {
          firstName: 'Tuyeni',
          lastName: 'Amutenya',
          sex: 'Female',
          dateOfBirth: '',
          contactNumber: '',
          address: '',
          nextOfKin: '',
          nextOfKinContact: '',
        },
      },
      patientLabel: 'Amutenya, Tuyeni',
      queuedAt: at,
      state: 'needs_attention',
      code: 'VALIDATION_FAILED',
      lastOutcome: 'needs_attention',
    },
  ];
}

afterEach(cleanup);

describe('Changes that need attention', () => {
  it("lists each refused change with its code's text, and retries one (English)", async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const engine = new MemoryEngine({ pin: '123456', attention: refused() });
    renderWithApp(<ChangesNeedingAttention engine={engine} />);
    expect(screen.getByRole('heading', { name: a('title') })).toBeTruthy();
    expect(screen.getByText(a('intro', { count: 2 }))).toBeTruthy();
    expect(screen.getByText(i18n.t('common:errors.PATIENT_NOT_FOUND'))).toBeTruthy();
    expect(screen.getByText(i18n.t('common:errors.VALIDATION_FAILED'))).toBeTruthy();
    const what = `${i18n.t('offline:kinds.allergies')} · Nangolo, Selma`;
    await user.click(screen.getByRole('button', { name: a('retryLabel', { what }) }));
    await waitFor(() => expect(screen.queryByText(i18n.t('common:errors.PATIENT_NOT_FOUND'))).toBeNull());
    expect(engine.calls).toEqual([{ method: 'retry', args: [ALLERGY] }]);
    expect(screen.getByText(a('intro', { count: 1 }))).toBeTruthy();
  });

  it('discards only with a reason (Afrikaans)', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    const engine = new MemoryEngine({ pin: '123456', attention: refused() });
    renderWithApp(<ChangesNeedingAttention engine={engine} />);
    const what = `${i18n.t('offline:kinds.patient')} · Amutenya, Tuyeni`;
    await user.click(screen.getByRole('button', { name: a('discardLabel', { what }) }));
    const dialog = await screen.findByRole('dialog', { name: a('discardTitle') });
    await user.click(within(dialog).getByRole('button', { name: a('discard') }));
    expect(await within(dialog).findByText(i18n.t('validation:discardReasonRequired'))).toBeTruthy();
    await user.type(within(dialog).getByLabelText(a('reason'), { exact: false }), '   ');
    await user.click(within(dialog).getByRole('button', { name: a('discard') }));
    expect(within(dialog).getByText(i18n.t('validation:discardReasonRequired'))).toBeTruthy();
    expect(engine.calls).toEqual([]);
    await user.type(within(dialog).getByLabelText(a('reason'), { exact: false }), 'Reeds aanlyn geregistreer');
    await user.click(within(dialog).getByRole('button', { name: a('discard') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(engine.calls).toEqual([{ method: 'discard', args: [PATIENT, 'Reeds aanlyn geregistreer'] }]);
    expect(screen.queryByText('Amutenya, Tuyeni', { exact: false })).toBeNull();
  });

  it('says when nothing needs attention (Oshiwambo)', async () => {
    await switchLanguage('ng');
    renderWithApp(<ChangesNeedingAttention engine={new MemoryEngine({ pin: '123456' })} />);
    expect(screen.getByText(a('none'))).toBeTruthy();
  });
});
