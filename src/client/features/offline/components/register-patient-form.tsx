// "Register a patient" offline (issue 27 item 4): the Add Patient form's fields and check (handed in by app/ through
// the kit, from features/patients); the engine queues a provisional patient, checked by the server's matcher on sync.
// No NC number and no portal slip here: the server gives them once it has the patient.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { AddPatientInput } from '../../../../contracts/patients';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import type { OfflineEngine } from '../engine/offline-engine';
import type { OfflineKit } from './offline-kit';

export interface Registered {
  clientId: string;
  name: string;
}

export function RegisterPatientForm({
  engine,
  kit,
  onRegistered,
  onCancel,
}: {
  engine: OfflineEngine;
  kit: OfflineKit;
  onRegistered: (patient: Registered) => void;
  onCancel: () => void;
}): React.JSX.Element {
  const { t } = useTranslation('offline');
  const [pending, setPending] = useState(false);
  const { refusal, refuse } = useRefusal();
  const register = async (input: AddPatientInput): Promise<void> => {
    setPending(true);
    try {
      const queued = await engine.queueRegistration(input);
      onRegistered({ clientId: queued.clientId, name: `${input.lastName}, ${input.firstName}` });
    } catch {
      refuse(t('register.failed'), t('register.failedDescription'));
    } finally {
      setPending(false);
    }
  };
  return (
    <section aria-labelledby="offline-register" className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
      <h2 id="offline-register" className="text-lg font-semibold">
        {t('register.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('register.intro')}</p>
      {kit.patientForm({
        onValid: register,
        onCancel,
        submitLabel: t('register.submit'),
        cancelLabel: t('register.cancel'),
        pending,
        pendingLabel: t('register.saving'),
        labelledBy: 'offline-register',
        alert: <FormAlert refusal={refusal} />,
      })}
    </section>
  );
}
