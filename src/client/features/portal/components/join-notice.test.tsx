import '../../../test/dom';
// The portal's notice of joined records (issue 24 item 7, decision 048), against the real server: it names the two
// facilities (here unknown) and the date in Oshiwambo (Ndonga), and "Report that this is wrong" opens one case and says so.
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { formatDate } from '../../../lib/dates';
import { joinPatients, type TestJoin } from '../../../../server/test/join-fixtures';
import { insertPatient, signInPatient } from '../../../../server/test/portal-fixtures';
import { queryOne } from '../../../../server/test/sql';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { JoinNotice } from './join-notice';

let join: TestJoin;
const server = realServer(async (t) => {
  const survivor = await insertPatient(t.db, { firstName: 'Ndeshi' });
  const merged = await insertPatient(t.db, { firstName: 'Ndeshi' });
  // Inserted without a CREATE audit row: where they were registered is not known, and the notice says so
  // (portal-joins.test.ts proves the facilities named from the CREATE rows).
  join = await joinPatients(t, survivor.id, merged.id);
  return signInPatient(t, survivor);
});

describe('the joined-records notice in the portal', () => {
  it('names the facilities and the date in Ndonga, and reports the join once', async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    renderWithApp(<JoinNotice />);
    const title = await screen.findByRole('heading', { name: i18n.t('portal:joinNotice.title') });
    const section = title.closest('section')!;
    const unknown = i18n.t('portal:joinNotice.unknownFacility');
    const date = formatDate(join.joinedAt.slice(0, 10));
    expect(section.textContent).toContain(i18n.t('portal:joinNotice.body', { first: unknown, second: unknown, date }));
    await user.click(screen.getByRole('button', { name: i18n.t('portal:joinNotice.report') }));
    expect(await screen.findByText(i18n.t('portal:joinNotice.reported'))).toBeTruthy();
    expect(screen.queryByRole('button', { name: i18n.t('portal:joinNotice.report') })).toBeNull();
    const cases = await queryOne<{ n: number }>(
      server.t.db,
      sql`SELECT count(*)::int AS n FROM security_events WHERE event_type = 'PATIENT_JOIN_REPORTED'`,
    );
    expect(cases?.n).toBe(1);
  });
});
