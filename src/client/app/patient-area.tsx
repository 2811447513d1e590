// The dashboard's default main area: patient search, then the access confirmation, then the record.
// A record opens from a confirmed patient, or from the deep link /?patient=<id> (the record itself answers 403
// until access to that patient has been confirmed).
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../lib/use-translation';
import { useLocation, useSearch } from 'wouter';
import type { PatientSearchResult } from '../../contracts/patients';
import type { CurrentUser } from '../features/auth/api/current-user';
import { MainHeading } from '../components/ui/main-heading';
import { hasPermission } from '../features/auth/api/current-user';
import { PatientSearch, useSearchState } from '../features/patients/components/patient-search';
import { loadNamespace } from '../lib/i18n';

// The record screen and its translations load only when a record is opened (DESIGN.md §10 first-page budget).
const loadPatientRecord = () => import('../features/record/components/patient-record');
const PatientRecord = lazy(async () => {
  const [m] = await Promise.all([loadPatientRecord(), loadNamespace('record')]);
  return { default: m.PatientRecord };
});

// The dialogs behind a search result (access confirmation, with re-authentication; the portal code) load when the
// user first reaches for a result, and stay mounted after their first use so they close and return focus as before
// (issue 21 item 18: with their dialog, form and date code they were a third of the search page's JavaScript).
const loadAccessDialog = () => import('../features/patients/components/access-dialog');
const loadReauthForm = () => import('../features/second-factor/components/reauth-form');
const loadPortalCodeDialog = () => import('../features/patients/components/portal-code-dialog');
const AccessDialog = lazy(() => loadAccessDialog().then((m) => ({ default: m.AccessDialog })));
const ReauthForm = lazy(() => loadReauthForm().then((m) => ({ default: m.ReauthForm })));
const PortalCodeDialog = lazy(() => loadPortalCodeDialog().then((m) => ({ default: m.PortalCodeDialog })));

/** Starts loading the result dialogs' code (a pointer over or focus on a button of the search screen). */
function preloadResultDialogs(canIssueCodes: boolean): void {
  void loadAccessDialog();
  void loadReauthForm();
  if (canIssueCodes) void loadPortalCodeDialog();
  void loadPatientRecord(); // the record comes next once access is confirmed
}

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
  // Whether each dialog was ever opened: from then on it stays mounted (closed) like any other dialog.
  const [accessUsed, setAccessUsed] = useState(false);
  const [codeUsed, setCodeUsed] = useState(false);

  if (patientId !== null) {
    return (
      <Suspense fallback={<p role="status">{t('common:loading')}</p>}>
        <PatientRecord
          key={patientId}
          patientId={patientId}
          onBack={() => navigate('/')}
          onOpenPatient={(id) => navigate(`/?patient=${id}`)}
          canEdit={hasPermission(user, 'records.write')}
        />
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
  // A button (a result's, or Search) under the pointer or the keyboard: the heading's focus on arrival is not one.
  const reachFor = (e: React.SyntheticEvent): void => {
    if (e.target instanceof Element && e.target.closest('button')) preloadResultDialogs(canIssueCodes);
  };
  return (
    <div onPointerOverCapture={reachFor} onFocusCapture={reachFor}>
      <PatientSearch
        onSelect={(p) => {
          setAccessUsed(true);
          setPicked(p);
        }}
        state={search}
        onIssueCode={
          canIssueCodes
            ? (p) => {
                setCodeUsed(true);
                setCodeFor(p);
              }
            : undefined
        }
      />
      <Suspense fallback={null}>
        {canIssueCodes && codeUsed ? <PortalCodeDialog patient={codeFor} onClose={() => setCodeFor(null)} /> : null}
        {accessUsed ? (
          <AccessDialog
            patient={picked}
            onCancel={() => setPicked(null)}
            reauth={(onDone, cancel) => (
              <Suspense fallback={null}>
                <ReauthForm onDone={onDone}>{cancel}</ReauthForm>
              </Suspense>
            )}
            onGranted={(p) => {
              setPicked(null);
              navigate(`/?patient=${p.id}`);
            }}
          />
        ) : null}
      </Suspense>
    </div>
  );
}
