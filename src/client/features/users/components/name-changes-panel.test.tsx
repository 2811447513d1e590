import '../../../test/dom';
// Issue 21 item 10 rendered with Testing Library against the real server: a doctor's request to take another
// clinician's name is listed for the administrator with the clash warning; Approve and Reject are one POST each and
// the request leaves the list; the texts are the chosen language's (en, af, ng).
import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { queryOne } from '../../../../server/test/sql';
import { createStaffUser, signIn, signInAs } from '../../../../server/test/staff';
import type { TestApp } from '../../../../server/test/test-app';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { NameChangesPanel } from './name-changes-panel';

/** A doctor asks to be called `to`; answers the doctor's id. */
async function requestRename(t: TestApp, from: [string, string], to: [string, string]): Promise<string> {
  const u = await createStaffUser(t.db, { roleId: 3, firstName: from[0], lastName: from[1] });
  const cookie = await signIn(t.app, u.email, u.password);
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/api/users/${u.id}`,
    headers: { cookie },
    payload: { firstName: to[0], lastName: to[1], email: u.email, department: 'Emergency', facility: 'Oshakati State Hospital' },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
  return u.id;
}

const ids: Record<string, string> = {};
const server = realServer(async (t) => {
  await createStaffUser(t.db, { roleId: 3, firstName: 'Martha', lastName: 'Shikongo' });
  ids.en = await requestRename(t, ['Petrus', 'Nande'], ['Martha', 'Shikongo']);
  ids.af = await requestRename(t, ['Johannes', 'Iipinge'], ['Johannes', 'Haufiku']);
  ids.ng = await requestRename(t, ['Selma', 'Iita'], ['Selma', 'Nghipondoka']);
  return (await signInAs(t, 2)).cookie;
});
const u = (key: string, options?: Record<string, unknown>) => i18n.t(`users:nameChanges.${key}`, options);
const nameOf = (id: string) => queryOne(server.t.db, sql`SELECT first_name, last_name FROM users WHERE id = ${id}`);

describe('Name changes waiting for approval', () => {
  it('lists the request with the clash warning and approves it with one POST (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<NameChangesPanel />);
    const approve = await screen.findByRole('button', { name: u('approveLabel', { from: 'Petrus Nande', to: 'Martha Shikongo' }) });
    expect(screen.getByText(u('fromTo', { from: 'Petrus Nande', to: 'Martha Shikongo' }))).toBeTruthy();
    expect(screen.getByText(u('sameName', { count: 1 }))).toBeTruthy();
    await user.click(approve);
    await waitFor(() => expect(screen.queryByText(u('fromTo', { from: 'Petrus Nande', to: 'Martha Shikongo' }))).toBeNull());
    expect(server.transport.sent.filter((r) => r.method === 'POST').map((r) => r.status)).toEqual([200]);
    expect(await nameOf(ids.en!)).toEqual({ first_name: 'Martha', last_name: 'Shikongo' });
  });

  it('rejects a request; the name stays (Afrikaans)', async () => {
    await switchLanguage('af');
    const user = userEvent.setup();
    renderWithApp(<NameChangesPanel />);
    await user.click(await screen.findByRole('button', { name: u('rejectLabel', { from: 'Johannes Iipinge', to: 'Johannes Haufiku' }) }));
    await waitFor(() => expect(screen.queryByText(u('fromTo', { from: 'Johannes Iipinge', to: 'Johannes Haufiku' }))).toBeNull());
    expect(await nameOf(ids.af!)).toEqual({ first_name: 'Johannes', last_name: 'Iipinge' });
  });

  it('shows the last request and then that none is waiting (Oshiwambo)', async () => {
    await switchLanguage('ng');
    const user = userEvent.setup();
    renderWithApp(<NameChangesPanel />);
    expect(await screen.findByText(u('title'))).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: u('approveLabel', { from: 'Selma Iita', to: 'Selma Nghipondoka' }) }));
    expect(await screen.findByText(u('none'))).toBeTruthy();
  });
});
