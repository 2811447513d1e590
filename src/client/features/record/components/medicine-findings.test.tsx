// A medicine's details (issue 25 item 4; decision 045), rendered against the real server: a minor interaction never
// interrupts the add, and is listed under the medicine, closed until opened, with its tier, the statement in the
// reader's language and the knowledge version; a medicine without findings shows nothing.
import '../../../test/dom';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { ATC_SYSTEM } from '../../../../contracts/code-systems';
import { recordApi } from '../../../../server/test/record-api';
import { SAMPLE_INPUTS } from '../../../../server/test/record-samples';
import { realServerWithRecord } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { RecordListSection } from './record-list-section';

const server = realServerWithRecord();

const medicine = (name: string, code: string) => ({ ...SAMPLE_INPUTS.medications, name, code, codeSystem: ATC_SYSTEM });

describe("a medicine's details", () => {
  it('list the minor interaction under both medicines, in Oshiwambo, with the knowledge version', async () => {
    const api = recordApi(server.t, server.cookie);
    expect((await api.add('medications', server.patient.id, medicine('Rifampicin', 'J04AB02'))).statusCode).toBe(201);
    expect((await api.add('medications', server.patient.id, medicine('Efavirenz', 'J05AG03'))).statusCode).toBe(201);
    expect((await api.add('medications', server.patient.id, medicine('Paracetamol', 'N02BE01'))).statusCode).toBe(201);
    await switchLanguage('ng');
    const user = userEvent.setup();
    renderWithApp(
      <RecordListSection kind="medications" patientId={server.patient.id} editing={false} addOpen={false} onAddOpenChange={() => {}} />,
    );
    const list = await screen.findByRole('list', { name: i18n.t('record:sections.medications') });
    const efavirenz = within(list)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.startsWith('Efavirenz'))!;
    const summary = await within(efavirenz).findByText(i18n.t('record:medicineChecks.details', { count: 1 }));
    expect(summary.closest('details')?.open).toBe(false);
    await user.click(summary);
    expect(summary.closest('details')?.open).toBe(true);
    expect(efavirenz.textContent).toContain(i18n.t('record:medicineChecks.tier.minor'));
    expect(efavirenz.textContent).toContain(i18n.t('record:warnings.INTERACTION_MINOR', { substance: 'Efavirenz', other: 'Rifampicin' }));
    expect(efavirenz.textContent).toContain('Rifampicin ohayi shunitha efavirenz molutu kashona');
    expect(efavirenz.textContent).toMatch(/2026-11-26\.2\+[0-9a-f]{8}/);
    const paracetamol = within(list)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.startsWith('Paracetamol'))!;
    expect(within(paracetamol).queryByText(/:/, { selector: 'summary' })).toBeNull();
    expect(server.transport.sent.filter((r) => r.url.endsWith('/medicine-checks'))).toHaveLength(1);
  });
});
