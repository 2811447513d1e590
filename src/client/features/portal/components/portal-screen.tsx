// The patient portal (SPEC §2): header with the welcome line and Logout; tabs Overview, one per list of the record
// (`lists`: the record kinds the portal shows, composed in app/) and Access history; the access error panel when the
// record cannot be loaded (signed out, a staff session, or any failure). Mobile first: one column, tabs scroll sideways.
import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { useLocation } from 'wouter';
import { LogOut, ShieldAlert } from 'lucide-react';
import { LanguageSelector } from '../../../components/language-selector';
import { Button } from '../../../components/ui/button';
import { MainHeading } from '../../../components/ui/main-heading';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs } from '../../../components/ui/tabs';
import { usePatientLogout } from '../api/patient-logout';
import { portalRecordQueryOptions } from '../api/portal-record';
import { AccessHistoryTab } from './access-history-tab';
import { OverviewTab } from './overview-tab';
import { JoinNotice } from './join-notice';
import { ResetNotice } from './reset-notice';
import { RecordTab, type PortalLists } from './record-tabs';

function AccessError(): React.JSX.Element {
  const { t } = useTranslation('portal');
  const [, navigate] = useLocation();
  return (
    <main className="flex min-h-screen items-center justify-center p-4">
      <div
        role="alert"
        className="flex w-full max-w-md flex-col items-center gap-3 rounded-lg border border-red-200 bg-white p-6 text-center shadow-sm"
      >
        <ShieldAlert aria-hidden="true" className="h-10 w-10 text-danger-600" />
        <MainHeading level={1} className="text-lg font-semibold text-slate-900">
          {t('accessError.title')}
        </MainHeading>
        <p className="text-slate-700">{t('accessError.description')}</p>
        <Button onClick={() => navigate('/patient-login', { replace: true })}>{t('accessError.returnToLogin')}</Button>
      </div>
    </main>
  );
}

/**
 * `lists`: the record's lists as the portal shows them; `passkeys`: the patient's passkeys card (decision 026);
 * `immunizations`: the schedule's due and overdue doses, shown in the vaccines tab (decision 044). Composed in app/.
 */
export function PortalScreen({
  lists,
  passkeys,
  immunizations,
}: {
  lists: PortalLists;
  passkeys?: React.ReactNode;
  immunizations?: React.ReactNode;
}): React.JSX.Element {
  const { t } = useTranslation(['portal', 'common']);
  const record = useQuery(portalRecordQueryOptions);
  const logout = usePatientLogout();
  const [tab, setTab] = useState('overview');

  if (record.isPending) {
    return (
      <main className="flex min-h-screen items-center justify-center p-4" aria-busy="true">
        <p role="status" className="flex items-center gap-2 text-slate-700">
          <Spinner /> {t('loading')}
        </p>
      </main>
    );
  }
  if (record.isError) return <AccessError />;

  const { patient, medicalRecords } = record.data;
  const shown = lists(medicalRecords);
  const items = [
    { value: 'overview', label: t('tabs.overview'), content: <OverviewTab record={record.data} lists={shown} /> },
    ...shown.map((list) => ({
      value: list.kind,
      label: t(`tabs.${list.kind}`),
      content:
        list.kind === 'vaccines' && immunizations ? (
          <div className="flex flex-col gap-4">
            {tab === 'vaccines' ? immunizations : null}
            <RecordTab list={list} />
          </div>
        ) : (
          <RecordTab list={list} />
        ),
    })),
    // Loaded only when opened: a fresh read (and audit row) each time the patient looks.
    { value: 'access', label: t('tabs.accessHistory'), content: tab === 'access' ? <AccessHistoryTab /> : null },
    ...(passkeys ? [{ value: 'passkeys', label: t('tabs.passkeys'), content: tab === 'passkeys' ? passkeys : null }] : []),
  ];

  return (
    <div className="min-h-screen overflow-x-hidden bg-slate-50">
      <header className="sticky top-0 z-30 border-b border-slate-200 bg-white">
        <div className="mx-auto max-w-4xl px-4 py-2">
          <div className="flex items-center justify-between gap-2">
            <p className="min-w-0 truncate text-xs font-medium text-brand-700">{t('common:appName')}</p>
            <div className="flex shrink-0 items-center gap-1">
              <LanguageSelector />
              <Button variant="secondary" size="sm" onClick={() => logout.mutate()} disabled={logout.isPending}>
                <LogOut aria-hidden="true" className="h-4 w-4" />
                {t('header.logout')}
              </Button>
            </div>
          </div>
          {/* Focused when the portal opens (after sign-in or activation), not left on the page body. */}
          <MainHeading level={1} className="break-words text-lg font-semibold text-slate-900">
            {t('header.welcome', { name: patient.firstName })}
          </MainHeading>
        </div>
      </header>
      <main className="mx-auto max-w-4xl px-4 py-4">
        <ResetNotice />
        <JoinNotice />
        <p className="mb-3 text-sm text-slate-600">{t('header.subtitle')}</p>
        <Tabs label={t('tabs.label')} value={tab} onValueChange={setTab} items={items} />
      </main>
    </div>
  );
}
