// The first page's requests start with the script, beside the translations, instead of one after another (issue 21
// item 18: each round trip costs on a slow link): the setup status and, on staff pages, the signed-in user; for a
// signed-in user the dashboard's code and translations start loading as soon as that answer says so; on the
// patient's pages, their screen's code and translations (and on the portal, the patient's record) at once.
import { currentUserQueryOptions } from '../features/auth/api/current-user';
import { portalRecordQueryOptions } from '../features/portal/api/portal-record';
import { setupStatusQueryOptions } from '../features/setup/api/setup';
import { preloadNamespaces } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { DASHBOARD_NAMESPACES, PATIENT_PATHS, PORTAL_NAMESPACES } from './router';

export function startFirstRequests(path: string, search = ''): void {
  void queryClient.prefetchQuery(setupStatusQueryOptions);
  if (PATIENT_PATHS.has(path)) {
    // The patient's screen and its translations, which the router would ask for only after the setup status.
    if (path === '/patient-portal') {
      // The patient's record too (one read, which the screen then shares: no second request, no second audit row).
      void queryClient.prefetchQuery(portalRecordQueryOptions);
      void import('../features/portal/components/portal-screen');
      preloadNamespaces(...PORTAL_NAMESPACES);
    } else {
      if (path === '/patient-login') void import('../features/portal/components/patient-login-screen');
      else void import('../features/portal/components/patient-activate-screen');
      preloadNamespaces('portal');
    }
    return;
  }
  queryClient.fetchQuery(currentUserQueryOptions).then(
    (user) => {
      // Its code and translations (and the record's, for a record's link), side by side instead of the
      // translations after the code: the router's lazy screens then find them loaded or on the way.
      if (!user) return;
      void import('./dashboard-screen');
      preloadNamespaces(...DASHBOARD_NAMESPACES);
      if (/[?&]patient=/.test(search)) {
        void import('../features/record/components/patient-record');
        preloadNamespaces('record');
      }
    },
    () => undefined, // the router asks again and shows what went wrong
  );
}
