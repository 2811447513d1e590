// The offline area's door (issue 27 item 2, decision 061): the device PIN unwraps the store's key, held in memory only.
// A wrong PIN says so and the field keeps focus; nothing else of the store is shown before.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import type { OfflineEngine } from '../engine/offline-engine';
import { PIN_MAX_DIGITS } from './pin-rules';

export function UnlockScreen({ engine }: { engine: OfflineEngine }): React.JSX.Element {
  const { t } = useTranslation('offline');
  const [pin, setPin] = useState('');
  const [empty, setEmpty] = useState(false);
  const [pending, setPending] = useState(false);
  const { refusal, refuse } = useRefusal();
  const unlock = async (): Promise<void> => {
    setEmpty(pin === '');
    if (pin === '') return;
    setPending(true);
    try {
      const ok = await engine.unlock(pin);
      if (!ok) refuse(t('unlock.wrongTitle'), t('unlock.wrongDescription'));
    } finally {
      setPending(false);
      setPin('');
    }
  };
  return (
    <section
      aria-labelledby="unlock-title"
      className="mx-auto flex w-full max-w-md flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
    >
      <h2 id="unlock-title" className="text-xl font-semibold">
        {t('unlock.title')}
      </h2>
      <p className="text-sm text-slate-700">{t('unlock.intro')}</p>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          void unlock();
        }}
      >
        <FormAlert refusal={refusal} />
        <FormField label={t('unlock.pin')} error={empty ? t('unlock.pinRequired') : undefined} required>
          <Input
            type="password"
            inputMode="numeric"
            autoComplete="current-password"
            maxLength={PIN_MAX_DIGITS}
            value={pin}
            onChange={(e) => setPin(e.target.value)}
          />
        </FormField>
        <div>
          <Button type="submit" pending={pending} pendingText={t('unlock.unlocking')}>
            {t('unlock.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
