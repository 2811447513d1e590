// The first page's requests start with the script, beside the translations, instead of one after another (issue 21
// item 18: each round trip costs on a slow link): the setup status and, on staff pages, the signed-in user; for a
// signed-in user the dashboard's code and translations start loading as soon as that answer says so (and on a
// record's link, the record's code, translations and summary); on the patient's pages, their screen's code and
// translations (and on the portal, the patient's record) at once. The server's page names most of these files too
// (src/server/http/index-page.ts), so they are on the way before this runs; the imports here then share them.
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
      // Two statements, never `a ? import(x) : import(y)`: the minifier merges the two preloading calls into one, and
      // the build then fills in one screen's list of files for both (the sign-in page fetched the activation
      // screen and the schema library, issue 21 item 18).
      if (path === '/patient-login') void import('../features/portal/components/patient-login-screen');
      if (path === '/patient-activate') void import('../features/portal/components/patient-activate-screen');
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
      const patient = new URLSearchParams(search).get('patient');
      if (patient) {
        void import('../features/record/components/patient-record');
        preloadNamespaces('record');
        // The record's one read too (patient-area.tsx reads the same id), beside the code instead of after the record
        // screen first renders: the screen then shares it (one request, one audit row).
        if (/^[1-9]\d{0,9}$/.test(patient)) {
          void import('../features/record/api/record-queries').then((m) =>
            queryClient.prefetchQuery(m.recordSummaryQueryOptions(Number(patient))),
          );
        }
      }
    },
    () => undefined, // the router asks again and shows what went wrong
  );
}
