// The first page's requests start with the script, beside the translations, instead of one after another (issue 21
// item 18: each round trip costs on a slow link): the setup status and, on staff pages, the signed-in user; for a
// signed-in user the dashboard's code starts loading as soon as that answer says so.
import { currentUserQueryOptions } from '../features/auth/api/current-user';
import { setupStatusQueryOptions } from '../features/setup/api/setup';
import { queryClient } from '../lib/query-client';
import { PATIENT_PATHS } from './router';

export function startFirstRequests(path: string, search = ''): void {
  void queryClient.prefetchQuery(setupStatusQueryOptions);
  if (PATIENT_PATHS.has(path)) return;
  queryClient.fetchQuery(currentUserQueryOptions).then(
    (user) => {
      // Its code only (and the record's, for a record's link): their translations load with them as the router
      // renders them, once the language is known.
      if (!user) return;
      void import('./dashboard-screen');
      if (/[?&]patient=/.test(search)) void import('../features/record/components/patient-record');
    },
    () => undefined, // the router asks again and shows what went wrong
  );
}
