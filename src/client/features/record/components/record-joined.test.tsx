import '../../../test/dom';
// A record joined into another (issue 24 item 6, decision 048), rendered against the real server: the record screen
// says which NC number it was joined into (in Afrikaans) and its button opens that record.
import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { joinPatients } from '../../../../server/test/join-fixtures';
import { createPatient } from '../../../../server/test/patient-fixtures';
import { realServerWithRecord } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { PatientRecord } from './patient-record';

const server = realServerWithRecord();

describe('a record joined into another', () => {
  it('names the NC number it was joined into and opens that record', async () => {
    const merged = await createPatient(server.t.db);
    await joinPatients(server.t, server.patient.id, merged.id);
    await switchLanguage('af');
    const user = userEvent.setup();
    const open = vi.fn();
    renderWithApp(<PatientRecord patientId={merged.id} onBack={() => {}} onOpenPatient={open} canEdit={false} />);
    expect(await screen.findByText(i18n.t('record:joined.intoNumber', { nc: server.patient.idNumber }))).toBeTruthy();
    await user.click(screen.getByRole('button', { name: i18n.t('record:joined.open') }));
    expect(open).toHaveBeenCalledWith(server.patient.id);
  });
});
