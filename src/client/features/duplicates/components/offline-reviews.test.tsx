import '../../../test/dom';
// Issue 27 item 5 rendered against the real server: an entry synced from a device onto a record another doctor
// changed meanwhile opens a review task; the duplicates area's tab lists it (why, the patient, the kind, who and both
// times) and Close sends one POST with the note, after which the task reads as closed.
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { ATC_SYSTEM } from '../../../../contracts/codes';
import { ROLE_IDS } from '../../../../contracts/constants';
import { deviceApi, entryOf, offlineUser } from '../../../../server/test/offline-fixtures';
import { createPatient } from '../../../../server/test/patient-fixtures';
import { confirmAccess, recordApi } from '../../../../server/test/record-api';
import { SAMPLE_INPUTS } from '../../../../server/test/record-samples';
import { queryOne } from '../../../../server/test/sql';
import { signInAs } from '../../../../server/test/staff';
import { realServer } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { OfflineReviews } from './offline-reviews';

let reviewId = 0;
let patientId = 0;
const server = realServer(async (t) => {
  const doctor = await offlineUser(t);
  patientId = (await createPatient(t.db)).id;
  await confirmAccess(t, doctor.cookie, patientId);
  const cursor = (await recordApi(t, doctor.cookie).changes(patientId)).json<{ cursor: string }>().cursor;
  const other = await signInAs(t, ROLE_IDS.doctor);
  await confirmAccess(t, other.cookie, patientId);
  await recordApi(t, other.cookie).add('diagnoses', patientId, { ...SAMPLE_INPUTS.diagnoses, condition: 'Gout' });
  const entry = entryOf('diagnoses', { id: patientId }, { ...SAMPLE_INPUTS.diagnoses, condition: 'Hypertension' }, new Date(), cursor);
  const res = await deviceApi(t, doctor.cookie, doctor.deviceId).sync([entry]);
  reviewId = res.json<{ results: { reviewId: number }[] }>().results[0]!.reviewId;
  // The same medicine twice, a minute apart: stored, with a task naming the warning nobody confirmed offline.
  const amoxicillin = { ...SAMPLE_INPUTS.medications, name: 'Amoxicillin', code: 'J01CA04', codeSystem: ATC_SYSTEM };
  const twice = [
    entryOf('medications', { id: patientId }, amoxicillin, new Date(Date.now() - 60_000)),
    entryOf('medications', { id: patientId }, { ...amoxicillin, dosage: '250mg' }, new Date()),
  ];
  const warned = await deviceApi(t, doctor.cookie, doctor.deviceId).sync(twice);
  if (warned.json<{ results: { outcome: string }[] }>().results[1]?.outcome !== 'saved_for_review') throw new Error(warned.body);
  return (await signInAs(t, ROLE_IDS.healthInformationOfficer)).cookie;
});
const r = (key: string, options?: Record<string, unknown>) => i18n.t(`offline:reviews.${key}`, options);

describe('Offline changes to review', () => {
  it('names the warnings an entry was stored over (Afrikaans)', async () => {
    await switchLanguage('af');
    renderWithApp(<OfflineReviews />);
    expect(await screen.findByText(r('reason.WARNINGS_NOT_CONFIRMED'))).toBeTruthy();
    expect(screen.getByText(r('warnings', { list: r('warningCodes.DUPLICATE_ENTRY') }))).toBeTruthy();
  });

  it('lists the task a sync opened and closes it with a note (English)', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    renderWithApp(<OfflineReviews />);
    const what = r('reason.RECORD_CHANGED_SINCE_SEEN');
    const close = await screen.findByRole('button', { name: r('closeLabel', { what, id: patientId }) });
    expect(screen.getByText(`${r('patient', { id: patientId })} · ${i18n.t('record:sections.diagnoses')}`)).toBeTruthy();
    await user.click(close);
    const dialog = await screen.findByRole('dialog', { name: r('closeTitle') });
    await user.type(within(dialog).getByLabelText(r('note'), { exact: false }), 'Both diagnoses kept');
    await user.click(within(dialog).getByRole('button', { name: r('close') }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(server.transport.sent.filter((s) => s.method === 'POST').map((s) => [s.url, s.status, s.body])).toEqual([
      [`/api/offline-reviews/${reviewId}/close`, 200, { note: 'Both diagnoses kept' }],
    ]);
    expect(await screen.findByText(r('isClosed'))).toBeTruthy();
    expect(await queryOne(server.t.db, sql`SELECT closed_at IS NOT NULL AS closed FROM offline_reviews WHERE id = ${reviewId}`)).toEqual({
      closed: true,
    });
  });
});
