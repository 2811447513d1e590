// The offline area composed (issue 27, decision 061): the offline feature's screens with what they borrow from the
// record (its kinds' list views and add forms) and from patients (the Add Patient form). Loaded lazily by the router, only when the device has offline mode and
// the server cannot be reached (or at /offline): never in the first page's JavaScript.
import { useTranslation } from '../lib/use-translation';
import { OfflineArea } from '../features/offline/components/offline-area';
import { useEngineLoader, useOfflineEngine } from '../features/offline/components/engine-context';
import type { OfflineKit } from '../features/offline/components/offline-kit';
import { PatientEntryForm } from '../features/patients/components/patient-entry-form';
import { RecordEntryForm } from '../features/record/components/record-entry-form';
import { kindView, VIEW_KINDS } from '../features/record/kinds';
import { offlineDeviceId } from '../features/offline/device-flag';
import { StatusScreen } from './status-screen';

export const offlineKit: OfflineKit = {
  kinds: VIEW_KINDS,
  describeRow: (kind, row, t) => kindView(kind).item(row as never, t),
  entryForm: (props) => <RecordEntryForm {...props} />,
  patientForm: (props) => <PatientEntryForm {...props} />,
};

function NotOnThisDevice(): React.JSX.Element {
  const { t } = useTranslation('offline');
  return (
    <main className="mx-auto flex max-w-xl flex-col gap-3 px-4 py-10">
      <h1 className="text-xl font-semibold">{t('area.title')}</h1>
      <p className="text-sm text-slate-700">{t('area.off')}</p>
      <p>
        <a className="text-brand-700 underline" href="/login">
          {t('area.signIn')}
        </a>
      </p>
    </main>
  );
}

function LoadedOfflineArea(): React.JSX.Element {
  const { t } = useTranslation('offline');
  const engine = useOfflineEngine();
  if (!engine) return <StatusScreen text={t('area.loading')} />;
  return <OfflineArea engine={engine} kit={offlineKit} onSignIn={() => window.location.assign('/login')} />;
}

export function OfflineRoute(): React.JSX.Element {
  const loader = useEngineLoader();
  if (!loader || offlineDeviceId() === null) return <NotOnThisDevice />;
  return <LoadedOfflineArea />;
}
