// The dashboard's default main area: patient search, then the access confirmation, then the record.
// A record opens from a confirmed patient, or from the deep link /?patient=<id> (the record itself answers 403
// until access to that patient has been confirmed).
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearch } from 'wouter';
import type { PatientSearchResult } from '../../contracts/patients';
import type { CurrentUser } from '../features/auth/api/current-user';
import { MainHeading } from '../components/ui/main-heading';
import { hasPermission } from '../features/auth/api/current-user';
import { AccessDialog } from '../features/patients/components/access-dialog';
import { ReauthForm } from '../features/second-factor/components/reauth-form';
import { PatientSearch, useSearchState } from '../features/patients/components/patient-search';
import { PortalCodeDialog } from '../features/patients/components/portal-code-dialog';
import { loadNamespace } from '../lib/i18n';

// The record screen and its translations load only when a record is opened (DESIGN.md §10 first-page budget).
const PatientRecord = lazy(async () => {
  const [m] = await Promise.all([import('../features/record/components/patient-record'), loadNamespace('record')]);
  return { default: m.PatientRecord };
});

/** The patient id of ?patient=<id>, or null. */
function linkedPatientId(search: string): number | null {
  const raw = new URLSearchParams(search).get('patient');
  return raw && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
}

export function PatientArea({ user }: { user: CurrentUser }): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'common']);
  const [, navigate] = useLocation();
  const patientId = linkedPatientId(useSearch());
  const [picked, setPicked] = useState<PatientSearchResult | null>(null);
  const [codeFor, setCodeFor] = useState<PatientSearchResult | null>(null);
  const canIssueCodes = hasPermission(user, 'patients.create');
  // Kept here, above the search screen, so 'Back to Search' returns to the same search and results.
  const search = useSearchState();

  if (patientId !== null) {
    return (
      <Suspense fallback={<p role="status">{t('common:loading')}</p>}>
        <PatientRecord key={patientId} patientId={patientId} onBack={() => navigate('/')} canEdit={hasPermission(user, 'records.write')} />
      </Suspense>
    );
  }
  if (!hasPermission(user, 'patients.search')) {
    // A heading that takes focus, like every other screen's: after sign-in focus lands here, not on the page body.
    return (
      <section className="flex flex-col gap-2 rounded-md bg-slate-100 p-4 text-slate-700">
        <MainHeading className="text-lg font-semibold text-slate-900">{t('homeTitle')}</MainHeading>
        <p>{t('noSearchPermission')}</p>
      </section>
    );
  }
  return (
    <>
      <PatientSearch onSelect={setPicked} state={search} onIssueCode={canIssueCodes ? setCodeFor : undefined} />
      {canIssueCodes ? <PortalCodeDialog patient={codeFor} onClose={() => setCodeFor(null)} /> : null}
      <AccessDialog
        patient={picked}
        onCancel={() => setPicked(null)}
        reauth={(onDone, cancel) => <ReauthForm onDone={onDone}>{cancel}</ReauthForm>}
        onGranted={(p) => {
          setPicked(null);
          navigate(`/?patient=${p.id}`);
        }}
      />
    </>
  );
}
