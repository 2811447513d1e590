import '../../../test/dom';
// The portal's notice after a reset two staff members confirmed (issue 21 item 1, decision 031), against the real
// server: it names who issued and who confirmed the reset, and "I have read this" dismisses it for good.
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { insertPatient, signInPatient } from '../../../../server/test/portal-fixtures';
import { queryOne } from '../../../../server/test/sql';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { ResetNotice } from './reset-notice';

let patientId = 0;
const server = realServer(async (t) => {
  const p = await insertPatient(t.db, { firstName: 'Ndeshi' });
  patientId = p.id;
  const cookie = await signInPatient(t, p);
  // The notice a confirmed reset leaves (portal-two-person-reset.test.ts makes it through the API).
  const notice = { at: '2026-11-25T09:30:00.000Z', issuedBy: 'Selma Desk', confirmedBy: 'Martha Second' };
  await t.db.execute(sql`UPDATE patient_portal_credentials SET reset_notice = ${JSON.stringify(notice)}::jsonb WHERE patient_id = ${p.id}`);
  return cookie;
});

describe('the reset notice in the portal', () => {
  it('names who issued and who confirmed the reset, in Afrikaans too, and is dismissed for good', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<ResetNotice />);
    const title = await screen.findByRole('heading', { name: i18n.t('portal:resetNotice.title') });
    const section = title.closest('section')!;
    expect(section.textContent).toContain('Selma Desk');
    expect(section.textContent).toContain('Martha Second');
    await user.click(screen.getByRole('button', { name: i18n.t('portal:resetNotice.dismiss') }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: i18n.t('portal:resetNotice.title') })).toBeNull());
    const row = await queryOne<{ reset_notice: unknown }>(
      server.t.db,
      sql`SELECT reset_notice FROM patient_portal_credentials WHERE patient_id = ${patientId}`,
    );
    expect(row).toEqual({ reset_notice: null });
    expect(server.transport.sent.map((r) => [r.method, r.url, r.status])).toEqual([
      ['GET', '/api/patient-portal/notices', 200],
      ['POST', '/api/patient-portal/notices/dismiss', 200],
    ]);
  });
});
