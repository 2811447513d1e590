// The offline area (issue 27 items 3-4, decision 061): what a device with offline mode shows when the server cannot be
// reached. First the device PIN (unlock-screen), or why the store was wiped; then today's and the coming days'
// appointments, the kept patients with a local search, a kept record with its add forms, and "Register a patient".
// The changes the server refused are listed on top (changes-needing-attention). Loaded lazily (app/router.tsx).
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { MainHeading } from '../../../components/ui/main-heading';
import type { OfflineEngine, WipeReason } from '../engine/offline-engine';
import { AppointmentsList } from './appointments-list';
import { ChangesNeedingAttention } from './changes-needing-attention';
import { useEngineStatus } from './engine-context';
import { KeptPatients } from './kept-patients';
import { KeptRecord, type PatientRef } from './kept-record';
import type { OfflineKit } from './offline-kit';
import { RegisterPatientForm } from './register-patient-form';
import { UnlockScreen } from './unlock-screen';

type View = { name: 'home' } | { name: 'record'; patient: PatientRef; provisionalName?: string } | { name: 'register' };

export function OfflineArea({
  engine,
  kit,
  wipedBecause = null,
  onSignIn,
}: {
  engine: OfflineEngine;
  kit: OfflineKit;
  /** Why the device's store was wiped, when it was (the engine tells app/). */
  wipedBecause?: WipeReason | null;
  /** Back to the online application (sign-in), when the server answers again. */
  onSignIn: () => void;
}): React.JSX.Element {
  const { t } = useTranslation('offline');
  const status = useEngineStatus(engine);
  const [view, setView] = useState<View>({ name: 'home' });
  const focusTop = (): void => {
    requestAnimationFrame(() => document.getElementById('offline-title')?.focus());
  };
  const go = (next: View): void => {
    setView(next);
    focusTop();
  };

  let body: React.JSX.Element;
  if (!status.enabled) {
    body = (
      <section aria-labelledby="offline-off" className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="offline-off" className="text-lg font-semibold">
          {wipedBecause ? t('area.wipedTitle') : t('area.offTitle')}
        </h2>
        <p className="text-sm text-slate-700">{wipedBecause ? t(`area.wiped.${wipedBecause}`) : t('area.off')}</p>
      </section>
    );
  } else if (!status.unlocked) {
    body = <UnlockScreen engine={engine} />;
  } else if (view.name === 'record') {
    body = (
      <KeptRecord
        engine={engine}
        kit={kit}
        patient={view.patient}
        {...(view.provisionalName !== undefined ? { provisionalName: view.provisionalName } : {})}
        onBack={() => go({ name: 'home' })}
      />
    );
  } else if (view.name === 'register') {
    body = (
      <RegisterPatientForm
        engine={engine}
        kit={kit}
        onCancel={() => go({ name: 'home' })}
        onRegistered={(p) => go({ name: 'record', patient: { clientId: p.clientId }, provisionalName: p.name })}
      />
    );
  } else {
    body = (
      <div className="flex flex-col gap-4">
        <div>
          <Button onClick={() => go({ name: 'register' })}>{t('area.register')}</Button>
        </div>
        <AppointmentsList engine={engine} onOpen={(id) => go({ name: 'record', patient: { id } })} />
        <KeptPatients engine={engine} onOpen={(id) => go({ name: 'record', patient: { id } })} />
      </div>
    );
  }

  return (
    <div className="min-h-screen pb-8">
      <main className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="min-w-0">
            <MainHeading id="offline-title" level={1} className="text-xl font-semibold">
              {t('area.title')}
            </MainHeading>
            <p className="text-sm text-slate-700">{status.online ? t('area.serverUnreachable') : t('area.offline')}</p>
          </div>
          <div className="flex flex-wrap gap-2">
            {status.online ? (
              <Button variant="secondary" onClick={onSignIn}>
                {t('area.signIn')}
              </Button>
            ) : null}
            {status.enabled && status.unlocked ? (
              <Button variant="secondary" onClick={() => engine.lock()}>
                {t('area.lock')}
              </Button>
            ) : null}
          </div>
        </div>
        {status.enabled && status.unlocked && status.attention.length > 0 ? <ChangesNeedingAttention engine={engine} /> : null}
        {body}
      </main>
    </div>
  );
}
