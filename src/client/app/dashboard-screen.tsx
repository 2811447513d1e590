// The staff dashboard (SPEC §2): header, product line, Audit/Admin buttons for those allowed, the user chip,
// and the main area by priority: profile, then audit, then admin, then patient record, otherwise patient search.
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from '../lib/use-translation';
import { useLocation } from 'wouter';
import { Button } from '../components/ui/button';
import { hasPermission, type CurrentUser } from '../features/auth/api/current-user';
import { ReviewCounts } from '../features/privacy/components/review-counts';
import { loadNamespaces } from '../lib/i18n';
import { displayNameOf } from '../lib/user-display';
import { PatientArea } from './patient-area';
import { StaffHeader } from './staff-header';

// The search (and the record) is what most staff open the dashboard for: the profile, audit and admin screens load
// when opened (issue 21 item 18: they were two thirds of the dashboard's code on a phone's first visit). Their
// translations came with the dashboard's (router.tsx).
// The profile's offline-mode card speaks the offline namespace (issue 27).
const ProfileArea = lazy(() =>
  Promise.all([import('./profile-area'), loadNamespaces('offline')]).then(([m]) => ({ default: m.ProfileArea })),
);
// The audit area names medicine-check findings in the record's words (decision 045): its translations come along.
const AuditArea = lazy(() => Promise.all([import('./audit-area'), loadNamespaces('record')]).then(([m]) => ({ default: m.AuditArea })));
// The duplicate review shows record entries in the record's words (its kind views): its translations come along.
// The devices list and the offline review tasks speak the offline namespace (issue 27).
const AdminArea = lazy(() =>
  Promise.all([import('./admin-area'), loadNamespaces('record', 'offline')]).then(([m]) => ({ default: m.AdminArea })),
);
const DefaultersScreen = lazy(() =>
  import('../features/immunization/components/defaulters-screen').then((m) => ({ default: m.DefaultersScreen })),
);

function Loading(): React.JSX.Element {
  const { t } = useTranslation();
  return <p role="status">{t('loading')}</p>;
}

export type DashboardView = 'home' | 'admin' | 'audit' | 'reviews' | 'defaulters';

export function DashboardScreen({ user, view }: { user: CurrentUser; view: DashboardView }): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'common', 'privacy']);
  const [, navigate] = useLocation();
  const [profileOpen, setProfileOpen] = useState(false);
  const canAdmin = hasPermission(user, 'users.approve') || hasPermission(user, 'patients.create') || hasPermission(user, 'patients.merge');
  const canReview = hasPermission(user, 'audit.review');
  const canListDefaulters = hasPermission(user, 'defaulters.read');
  const canAudit = hasPermission(user, 'audit.read') || hasPermission(user, 'reports.read') || canReview;
  const roleName = user.role ? t(`common:roles.${user.role.name}`, { defaultValue: user.role.displayName }) : t('profile:healthcareWorker');

  let main: React.JSX.Element;
  if (profileOpen) main = <ProfileArea user={user} onClose={() => setProfileOpen(false)} />;
  else if ((view === 'audit' || view === 'reviews') && canAudit)
    main = <AuditArea user={user} onBack={() => navigate('/')} canReview={canReview} view={view} />;
  else if (view === 'admin' && canAdmin) main = <AdminArea user={user} />;
  else if (view === 'defaulters' && canListDefaulters) main = <DefaultersScreen facility={user.facility} />;
  else if (view !== 'home')
    main = (
      <p role="alert" className="rounded-md bg-red-50 p-4 text-danger-600">
        {t('notAllowed')}
      </p>
    );
  else main = <PatientArea user={user} />;

  return (
    <div className="min-h-screen pb-8">
      <StaffHeader user={user} onProfile={() => setProfileOpen(true)} />
      <main className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div>
            <h1 className="text-2xl font-bold text-slate-900">{t('common:appName')}</h1>
            <p className="text-sm text-slate-600">
              {t('common:country')} · {t('common:subtitle')}
            </p>
          </div>
          <nav aria-label={t('navigation')} className="flex flex-wrap items-center gap-2">
            {canListDefaulters ? (
              <Button variant="secondary" onClick={() => navigate('/defaulters')}>
                {t('defaulters.button')}
              </Button>
            ) : null}
            {canAudit ? (
              <Button variant="secondary" onClick={() => navigate('/audit')}>
                {t('audit')}
              </Button>
            ) : null}
            {canAdmin ? (
              <Button variant="secondary" onClick={() => navigate('/admin')}>
                {t('admin.button')}
              </Button>
            ) : null}
            <button
              type="button"
              onClick={() => setProfileOpen(true)}
              className="flex flex-col items-start rounded-md border border-slate-200 bg-white px-3 py-1.5 text-left hover:bg-slate-50"
              aria-label={t('openProfile', { name: displayNameOf(user), role: roleName })}
            >
              <span className="text-sm font-semibold">{displayNameOf(user)}</span>{' '}
              <span className="text-xs text-slate-600">{roleName}</span>
            </button>
          </nav>
        </div>
        {canReview && view === 'home' && !profileOpen ? <ReviewCounts onOpen={() => navigate('/audit/reviews')} /> : null}
        <div>
          <Suspense fallback={<Loading />}>{main}</Suspense>
        </div>
      </main>
    </div>
  );
}
