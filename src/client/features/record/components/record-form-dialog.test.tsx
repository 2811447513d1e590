// The Add dialog of the record (SPEC §2, §5) rendered with Testing Library against the real server (inject, a real
// database): the client's own validation stops bad input before any request, in the user's language; a valid add
// is one POST whose answer goes into the cache, and the row and its one audit row are in the database. Every add
// carries an Idempotency-Key (issue 23): a lost answer is retried with the same key and stores one row; a changed
// form is a new submission with a new key. (The edit is in record-edit.test.tsx.)
import '../../../test/dom';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from '../../../lib/i18n';
import { sql } from 'drizzle-orm';
import { queryOne } from '../../../../server/test/sql';
import { realServerWithRecord } from '../../../test/real-server';
import { renderWithApp, switchLanguage } from '../../../test/render';
import { recordKeys, recordListQueryOptions } from '../api/record-queries';
import { RecordFormDialog } from './record-form-dialog';

/** What the page's fetch was asked to send, whether or not it reached the server. */
interface Attempt {
  method: string;
  key: string | null;
}

/**
 * Puts a flaky network between the page and the server: `fail(attempt)` decides, per request, whether it is lost on
 * the way there ('before': the server never sees it) or on the way back ('after': the server did the work, the page
 * hears nothing). The server itself is untouched.
 */
function flakyNetwork(fail: (attempt: Attempt, n: number) => 'before' | 'after' | null): Attempt[] {
  const through = globalThis.fetch;
  const attempts: Attempt[] = [];
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const attempt = { method: (init?.method ?? 'GET').toUpperCase(), key: new Headers(init?.headers).get('idempotency-key') };
    attempts.push(attempt);
    const lost = fail(attempt, attempts.filter((a) => a.method === attempt.method).length);
    if (lost === 'before') throw new TypeError('Failed to fetch');
    const res = await through(input, init);
    if (lost === 'after') throw new TypeError('Failed to fetch');
    return res;
  };
  restoreNetwork = () => {
    globalThis.fetch = through;
  };
  return attempts;
}
let restoreNetwork = (): void => undefined;
afterEach(() => {
  restoreNetwork();
  restoreNetwork = () => undefined;
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const server = realServerWithRecord();

const count = async (table: string): Promise<number> =>
  Number((await queryOne<{ n: number }>(server.t.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)}`))!.n);

function openDialog() {
  const closed: boolean[] = [];
  const view = renderWithApp(
    <RecordFormDialog kind="diagnoses" patientId={server.patient.id} open onOpenChange={(open) => closed.push(!open)} />,
  );
  const dialog = screen.getByRole('dialog');
  // A label reads "<name> *" when the field is required: match the name exactly.
  const field = (key: string) => {
    const name = i18n.t(`record:fields.${key}`);
    return within(dialog).getByLabelText((content) => content.replace(/\s*\*$/, '').trim() === name);
  };
  return { view, dialog, field, closed };
}

describe('Add diagnosis dialog', () => {
  it('shows each missing field beside it, in English, and sends nothing', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field } = openDialog();
    await user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));

    const condition = field('condition');
    await waitFor(() => expect(condition.getAttribute('aria-invalid')).toBe('true'));
    const described = document.getElementById(condition.getAttribute('aria-describedby')!);
    expect(described?.textContent).toBe(i18n.t('validation:conditionRequired'));
    expect(described?.textContent).toBe('Condition is required');
    expect(document.getElementById(field('doctor').getAttribute('aria-describedby')!)?.textContent).toBe(
      i18n.t('validation:doctorRequired'),
    );
    expect(server.transport.sent).toEqual([]);
    expect(await count('diagnoses')).toBe(0);
  });

  it('speaks Afrikaans and Oshiwambo too: labels and messages from those locale files', async () => {
    for (const lang of ['af', 'ng'] as const) {
      cleanup();
      await switchLanguage(lang);
      const user = userEvent.setup();
      const { dialog, field } = openDialog();
      await user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));
      const condition = field('condition');
      await waitFor(() => expect(condition.getAttribute('aria-invalid')).toBe('true'));
      const text = document.getElementById(condition.getAttribute('aria-describedby')!)?.textContent;
      expect(text).toBe(i18n.t('validation:conditionRequired'));
      expect(text).not.toBe('Condition is required');
    }
    expect(server.transport.sent).toEqual([]);
  });

  it('adds with one POST, puts the stored row in the cache, closes, and writes the row with one audit row', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field, closed, view } = openDialog();
    // The list is on screen, as in the record: loaded once (one GET and its VIEW row) before the add.
    await view.queryClient.fetchQuery(recordListQueryOptions('diagnoses', server.patient.id));
    server.transport.sent.length = 0;
    const auditBefore = await count('audit_logs');
    await user.type(field('condition'), 'Hypertension');
    await user.selectOptions(field('status'), 'Active');
    await user.type(field('diagnosedDate'), '2024-03-01');
    await user.type(field('doctor'), 'Dr. Ndapewa Nghifindaka');
    await user.type(field('facility'), 'Oshakati Intermediate Hospital');
    await user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));

    await waitFor(() => expect(closed).toEqual([true]));
    // The condition's type-ahead may look up the catalogue while typing (reference data, not the record).
    const recordRequests = server.transport.sent.filter((r) => !r.url.startsWith('/api/codes?'));
    expect(recordRequests.map((r) => [r.method, r.url, r.status])).toEqual([['POST', `/api/patients/${server.patient.id}/diagnoses`, 201]]);
    const stored = await queryOne<{ id: number; condition: string; doctor: string }>(
      server.t.db,
      sql`SELECT id, condition, doctor FROM diagnoses WHERE patient_id = ${server.patient.id}`,
    );
    expect(stored).toMatchObject({ condition: 'Hypertension', doctor: 'Dr. Ndapewa Nghifindaka' });
    expect(await count('audit_logs')).toBe(auditBefore + 1);
    const cached = view.queryClient.getQueryData<{ id: number }[]>(recordKeys.list('diagnoses', server.patient.id));
    expect(cached?.map((d) => d.id)).toEqual([stored!.id]);
    expect(await screen.findByText(i18n.t('record:toast.added.diagnoses'))).toBeTruthy();
  });

  async function fillDiagnosis(field: (key: string) => HTMLElement, user: ReturnType<typeof userEvent.setup>): Promise<void> {
    await user.type(field('condition'), 'Malaria');
    await user.type(field('diagnosedDate'), '2024-04-02');
    await user.type(field('doctor'), 'Dr. Selma Shilongo');
    await user.type(field('facility'), 'Onandjokwe Hospital');
  }
  const diagnosesOfPatient = async (): Promise<number> =>
    Number(
      (await queryOne<{ n: number }>(server.t.db, sql`SELECT count(*)::int AS n FROM diagnoses WHERE patient_id = ${server.patient.id}`))!
        .n,
    );

  it('sends an Idempotency-Key; when the answer is lost the add is retried with the same key and stores one row', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field, closed } = openDialog();
    await fillDiagnosis(field, user);
    const before = await diagnosesOfPatient();
    // The first POST reaches the server and stores the row; its answer never comes back.
    const attempts = flakyNetwork((a, n) => (a.method === 'POST' && n === 1 ? 'after' : null));
    await user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));

    await waitFor(() => expect(closed).toEqual([true]), { timeout: 10_000 });
    const posts = server.transport.sent.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status)).toEqual([201, 201]);
    const key = posts[0]!.headers['idempotency-key'];
    expect(key).toMatch(UUID);
    expect(posts[1]!.headers['idempotency-key']).toBe(key);
    expect(attempts.filter((a) => a.method === 'POST').map((a) => a.key)).toEqual([key, key]);
    // The retry was answered with the first attempt's row: one row, and the page was told it was a replay.
    expect(posts[1]!.responseHeaders['idempotent-replayed']).toBe('true');
    expect(await diagnosesOfPatient()).toBe(before + 1);
    expect(await screen.findByText(i18n.t('record:toast.added.diagnoses'))).toBeTruthy();
  });

  it('keeps the key when the same form is saved again after a failure, and makes a new one once the form changes', async () => {
    await switchLanguage('en');
    const user = userEvent.setup();
    const { dialog, field, closed } = openDialog();
    await fillDiagnosis(field, user);
    const before = await diagnosesOfPatient();
    // The network is down for the first four POSTs (a Save and its one retry, twice): none reaches the server.
    const attempts = flakyNetwork((a, n) => (a.method === 'POST' && n <= 4 ? 'before' : null));
    const saveButton = () => within(dialog).getByRole('button', { name: i18n.t('record:form.save') });
    const save = () => user.click(within(dialog).getByRole('button', { name: i18n.t('record:form.save') }));
    await save();
    await screen.findByText(i18n.t('record:toast.addFailed.diagnoses'), {}, { timeout: 10_000 });
    await waitFor(() => expect(saveButton().getAttribute('aria-busy')).toBeNull());
    await save();
    await waitFor(() => expect(attempts.filter((a) => a.method === 'POST')).toHaveLength(4), { timeout: 10_000 });
    await waitFor(() => expect(saveButton().getAttribute('aria-busy')).toBeNull(), { timeout: 10_000 });
    const [first, ...again] = attempts.filter((a) => a.method === 'POST').map((a) => a.key);
    expect(first).toMatch(UUID);
    expect(again).toEqual([first, first, first]);
    expect(server.transport.sent.filter((r) => r.method === 'POST')).toEqual([]);

    // A changed form is another submission.
    await user.clear(field('facility'));
    await user.type(field('facility'), 'Oshakati Intermediate Hospital');
    await save();
    await waitFor(() => expect(closed).toEqual([true]), { timeout: 10_000 });
    const posts = server.transport.sent.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status)).toEqual([201]);
    expect(posts[0]!.headers['idempotency-key']).toMatch(UUID);
    expect(posts[0]!.headers['idempotency-key']).not.toBe(first);
    expect(await diagnosesOfPatient()).toBe(before + 1);
  });
});
