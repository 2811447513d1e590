import '../../../test/dom';
// The Admin area's immunization schedule against the real server (issue 25 item 1, decision 044): an administrator
// sees the shipped file as current, a bad file is refused with every problem listed (in Afrikaans), the shipped file
// under a new version name is loaded and becomes current; a nurse has no such tab.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ROLE_IDS } from '../../../../contracts/constants';
import type { CurrentUser } from '../../../../contracts/auth';
import { queryRows } from '../../../../server/test/sql';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { AdminArea } from '../../../app/admin-area';
import { ScheduleVersions } from './schedule-versions';

const server = realServer(async (t) => (await signInAs(t, ROLE_IDS.admin)).cookie);
const shipped = JSON.parse(readFileSync('catalogues/immunization-schedule.json', 'utf8')) as { version: string; doses: object[] };
const jsonFile = (content: unknown): File => new File([JSON.stringify(content)], 'schedule.json', { type: 'application/json' });

async function upload(file: File): Promise<void> {
  const user = userEvent.setup();
  await user.upload(screen.getByLabelText(i18n.t('dashboard:schedule.file')), file);
  await user.click(screen.getByRole('button', { name: i18n.t('dashboard:schedule.load') }));
}

describe('the immunization schedule in the Admin area', () => {
  it('lists the shipped file, refuses a bad file with its problems, and loads a new version', async () => {
    await switchLanguage('af');
    renderWithApp(<ScheduleVersions />);
    const list = await screen.findByRole('list', { name: i18n.t('dashboard:schedule.versions') });
    expect(await within(list).findByText(shipped.version, { exact: false })).toBeTruthy();
    expect(within(list).getByText(i18n.t('dashboard:schedule.shipped'))).toBeTruthy();

    await upload(jsonFile({ ...shipped, version: 'bad version!', doses: [{ ...shipped.doses[0], earliestAge: 'soon' }] }));
    const refused = await screen.findByRole('alert');
    expect(refused.textContent).toContain(i18n.t('dashboard:schedule.invalid'));
    expect(refused.textContent).toContain(i18n.t('validation:scheduleVersion'));
    expect(refused.textContent).toContain(`doses.0.earliestAge: ${i18n.t('validation:scheduleAge')}`);
    expect(document.activeElement).toBe(refused);
    expect(await queryRows(server.t.db, sql`SELECT version FROM immunization_schedules`)).toEqual([]);

    await upload(jsonFile({ ...shipped, version: 'NA-EPI-2027.1' }));
    const loaded = (await screen.findByText(i18n.t('dashboard:schedule.loaded', { version: 'NA-EPI-2027.1' }))).closest('[role="status"]');
    expect(document.activeElement).toBe(loaded);
    expect(await queryRows(server.t.db, sql`SELECT version FROM immunization_schedules`)).toEqual([{ version: 'NA-EPI-2027.1' }]);
    const first = (await within(list).findAllByRole('listitem'))[0]!;
    expect(within(first).getByText('NA-EPI-2027.1', { exact: false })).toBeTruthy();
    expect(within(first).getByText(i18n.t('dashboard:schedule.current'))).toBeTruthy();

    await upload(jsonFile({ ...shipped, version: 'NA-EPI-2027.1' }));
    expect((await screen.findByRole('alert')).textContent).toBe(i18n.t('dashboard:schedule.conflict', { version: 'NA-EPI-2027.1' }));
  });

  it('is a tab only for holders of immunizations.schedule', async () => {
    await switchLanguage('en');
    const user = (permissions: string[]): CurrentUser => ({ permissions }) as unknown as CurrentUser; // only permissions are read
    const tab = { name: i18n.t('dashboard:schedule.tab') };
    const { unmount } = renderWithApp(<AdminArea user={user(['users.approve', 'immunizations.schedule'])} />);
    expect(screen.getByRole('tab', tab)).toBeTruthy();
    unmount();
    renderWithApp(<AdminArea user={user(['users.approve'])} />);
    expect(screen.queryByRole('tab', tab)).toBeNull();
  });
});
