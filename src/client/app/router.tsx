// Routing of SPEC §2: the setup gate replaces every route while initial setup is needed.
import { lazy, Suspense } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../lib/use-translation';
import { Redirect, Route, Switch, useLocation } from 'wouter';
import { LanguageSelector } from '../components/language-selector';
import { loadNamespaces } from '../lib/i18n';
import { STAFF_NAMESPACES } from '../locales';
import { currentUserQueryOptions, type CurrentUser } from '../features/auth/api/current-user';
import { LoginScreen, type SecondStepView } from '../features/auth/components/login-screen';
import { setupStatusQueryOptions } from '../features/setup/api/setup';
import { offlineDeviceId } from '../features/offline/device-flag';
import { asApiError } from '../lib/api-error';
import type { DashboardView } from './dashboard-screen';
import { StaffFrame, StatusScreen } from './status-screen';

/** The dashboard's translations: the staff bundle and privacy's (review counts, the reviewers' tab). */
export const DASHBOARD_NAMESPACES = [...STAFF_NAMESPACES, 'privacy'] as const;

/**
 * The portal's translations: its own, privacy's (the patient's access history) and record's (the schedule's due and
 * overdue doses in the vaccines tab, decision 044).
 */
export const PORTAL_NAMESPACES = ['portal', 'privacy', 'record'] as const;

const SetupScreen = lazy(() => import('../features/setup/components/setup-screen').then((m) => ({ default: m.SetupScreen })));
// Each screen's translations load with its JavaScript (DESIGN.md §10 first-page budget).
const DashboardScreen = lazy(async () => {
  const [m] = await Promise.all([import('./dashboard-screen'), loadNamespaces(...DASHBOARD_NAMESPACES)]);
  return { default: m.DashboardScreen };
});
const SecondFactorStep = lazy(async () => {
  const [m] = await Promise.all([import('../features/second-factor/components/second-factor-step'), loadNamespaces('security')]);
  return { default: m.SecondFactorStep };
});
// The offline area (issue 27, decision 061): its code and translations load only when it is shown.
const OfflineRoute = lazy(async () => {
  const [m] = await Promise.all([import('./offline-area'), loadNamespaces('offline', 'record', 'patients', 'search')]);
  return { default: m.OfflineRoute };
});
/** The server could not be reached: no answer at all, or a gateway's (the server behind it is down). */
const unreachable = (q: { isError: boolean; error: unknown }): boolean => {
  if (!q.isError) return false;
  const status = asApiError(q.error)?.status;
  return status === undefined || status === 502 || status === 503 || status === 504;
};
function Loading(): React.JSX.Element {
  const { t } = useTranslation();
  return <StatusScreen text={t('loading')} />;
}
const secondStep: SecondStepView = (step, onBack, methods) => (
  <Suspense fallback={<Loading />}>
    <SecondFactorStep step={step} onBack={onBack} methods={methods} />
  </Suspense>
);
const PatientLoginScreen = lazy(async () => {
  const [m] = await Promise.all([import('../features/portal/components/patient-login-screen'), loadNamespaces('portal')]);
  return { default: m.PatientLoginScreen };
});
const PatientActivateScreen = lazy(async () => {
  const [m] = await Promise.all([import('../features/portal/components/patient-activate-screen'), loadNamespaces('portal')]);
  return { default: m.PatientActivateScreen };
});
// The patient's due and overdue doses (decision 044), loaded when the vaccines tab is first shown: the portal's
// first paint on a phone does without its code (issue 21 item 18).
const OwnImmunizationStatus = lazy(async () => {
  const m = await import('../features/record/components/immunization-status');
  const OwnStatusCard = (): React.JSX.Element => <m.ImmunizationStatusCard patientId="own" />;
  return { default: OwnStatusCard };
});
// The portal's lists are the record kinds' (features/record/kinds), handed to the portal screen here.
const PortalScreen = lazy(async () => {
  const [m, kinds] = await Promise.all([
    import('../features/portal/components/portal-screen'),
    import('../features/record/kinds'),
    loadNamespaces(...PORTAL_NAMESPACES),
  ]);
  const PortalWithLists = ({
    passkeys,
    immunizations,
  }: {
    passkeys?: React.ReactNode;
    immunizations?: React.ReactNode;
  }): React.JSX.Element => <m.PortalScreen lists={kinds.portalLists} passkeys={passkeys} immunizations={immunizations} />;
  return { default: PortalWithLists };
});

// The patient's passkeys card in the portal (decision 026), loaded with the tab; adding a passkey asks for the PIN
// again when it was entered more than 10 minutes ago (issue 21 item 2).
const PasskeysCard = lazy(async () => {
  const [card, pin] = await Promise.all([
    import('../features/passkeys/components/passkeys-card'),
    import('../features/portal/components/portal-pin-reauth'),
  ]);
  const PortalPasskeysCard = (): React.JSX.Element => (
    <card.PasskeysCard reauth={(onDone, cancel) => <pin.PortalPinReauth onDone={onDone}>{cancel}</pin.PortalPinReauth>} />
  );
  return { default: PortalPasskeysCard };
});
function InlineLoading(): React.JSX.Element {
  const { t } = useTranslation();
  return <p role="status">{t('loading')}</p>;
}
const portalPasskeys = (
  <Suspense fallback={<InlineLoading />}>
    <PasskeysCard />
  </Suspense>
);
const portalImmunizations = (
  <Suspense fallback={<InlineLoading />}>
    <OwnImmunizationStatus />
  </Suspense>
);

/** The patient's routes (SPEC §2): they never need the staff user, and work signed out. */
export const PATIENT_PATHS = new Set(['/patient-login', '/patient-activate', '/patient-portal']);

function LanguageCorner(): React.JSX.Element {
  return (
    <div className="fixed right-3 top-3 z-30">
      <LanguageSelector />
    </div>
  );
}

/** Signed out: the staff login (with the language selector); signed in: the dashboard with that view. */
function Staff({ user, view }: { user: CurrentUser | null; view: DashboardView }): React.JSX.Element {
  if (user) return <DashboardScreen user={user} view={view} />;
  return (
    <>
      <LanguageCorner />
      <LoginScreen secondStep={secondStep} />
    </>
  );
}

export function AppRouter(): React.JSX.Element {
  const { t } = useTranslation();
  const [location] = useLocation();
  const patientPath = PATIENT_PATHS.has(location);
  const setup = useQuery(setupStatusQueryOptions);
  const user = useQuery({ ...currentUserQueryOptions, enabled: setup.data?.needsSetup === false && !patientPath });

  // A device with offline mode whose server cannot be reached opens the offline area instead of an error (issue 27).
  if (location === '/offline' || (offlineDeviceId() !== null && (unreachable(setup) || unreachable(user)))) {
    return (
      <Suspense fallback={<StatusScreen text={t('loading')} />}>
        <OfflineRoute />
      </Suspense>
    );
  }
  if (setup.isPending) return <StatusScreen text={t('checkingStatus')} />;
  if (setup.data?.needsSetup) {
    return (
      <Suspense fallback={<StatusScreen text={t('loading')} />}>
        <LanguageCorner />
        <SetupScreen />
      </Suspense>
    );
  }
  if (patientPath) {
    // A staff session on /patient-portal is refused by the server (403): the portal shows its access error panel.
    return (
      <Suspense fallback={<StatusScreen text={t('loading')} />}>
        {location === '/patient-login' ? (
          <PatientLoginScreen />
        ) : location === '/patient-activate' ? (
          <PatientActivateScreen />
        ) : (
          <PortalScreen passkeys={portalPasskeys} immunizations={portalImmunizations} />
        )}
      </Suspense>
    );
  }
  if (user.isPending) return <StatusScreen text={t('loading')} />;
  const me = user.data ?? null;

  const fallback = me ? (
    <StaffFrame appName={t('appName')} subtitle={`${t('country')} · ${t('subtitle')}`} text={t('loading')} />
  ) : (
    <StatusScreen text={t('loading')} />
  );
  return (
    <Suspense fallback={fallback}>
      <Switch>
        <Route path="/login">{me ? <Redirect to="/" replace /> : <Staff user={null} view="home" />}</Route>
        <Route path="/admin">{me ? <Staff user={me} view="admin" /> : <Redirect to="/login" replace />}</Route>
        <Route path="/audit">{me ? <Staff user={me} view="audit" /> : <Redirect to="/login" replace />}</Route>
        <Route path="/defaulters">{me ? <Staff user={me} view="defaulters" /> : <Redirect to="/login" replace />}</Route>
        <Route path="/audit/reviews">{me ? <Staff user={me} view="reviews" /> : <Redirect to="/login" replace />}</Route>
        <Route path="/">{me ? <Staff user={me} view="home" /> : <Redirect to="/login" replace />}</Route>
        <Route>{me ? <Redirect to="/" replace /> : <Staff user={null} view="home" />}</Route>
      </Switch>
    </Suspense>
  );
}
