// Offline mode on this device (issue 27 item 2, decision 061), a card on the staff profile: the user names the device
// and chooses a device PIN (6+ digits, twice); the engine registers the device (POST /api/devices) and makes the
// store's key. The server asks for a fresh second factor (REAUTH_REQUIRED): the re-authentication step app/ composes
// in (as break-the-glass does), then the same request again. A user without a second factor is told why
// (OFFLINE_NEEDS_SECOND_FACTOR, common.json errors.*). On a device with offline mode: "Switch off on this device".
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { FormAlert, useRefusal } from '../../../components/ui/form-alert';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { offlineDeviceId } from '../device-flag';
import type { LoadOfflineEngine } from './engine-context';
import { engineErrorCode, engineErrorText } from './engine-errors';
import { useEngineLoader } from './engine-context';
import { labelProblem, PIN_MAX_DIGITS, pinProblem } from './pin-rules';

/** The re-authentication step (features/second-factor, composed in app/): `cancel` is this card's Cancel. */
export type OfflineReauthView = (onDone: () => void, cancel: React.ReactNode, intro: string) => React.ReactNode;

interface Problems {
  label?: string | undefined;
  pin?: string | undefined;
  again?: string | undefined;
}

export function EnableOfflineCard({ reauth, load }: { reauth: OfflineReauthView; load?: LoadOfflineEngine }): React.JSX.Element {
  const { t } = useTranslation(['offline', 'validation', 'common']);
  const fromContext = useEngineLoader();
  const loader = load ?? fromContext;
  const [on, setOn] = useState(() => offlineDeviceId() !== null);
  const [label, setLabel] = useState('');
  const [pin, setPin] = useState('');
  const [again, setAgain] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const [pending, setPending] = useState(false);
  const [needsReauth, setNeedsReauth] = useState(false);
  const [confirmOff, setConfirmOff] = useState(false);
  const { refusal, refuse, clear } = useRefusal();

  const enable = async (): Promise<void> => {
    const labelKey = labelProblem(label);
    const pinKey = pinProblem(pin, again);
    const next: Problems = {
      label: labelKey ? t(labelKey) : undefined,
      pin: pinKey === 'enable.pinRule' ? t(pinKey) : undefined,
      again: pinKey === 'enable.pinMismatch' ? t(pinKey) : undefined,
    };
    setProblems(next);
    if (labelKey || pinKey || !loader) return;
    clear();
    setPending(true);
    try {
      const engine = await loader();
      await engine.enable(label.trim(), pin);
      setPin('');
      setAgain('');
      setOn(true);
      toast({ title: t('enable.doneTitle'), description: t('enable.doneDescription') });
    } catch (error) {
      if (engineErrorCode(error) === 'REAUTH_REQUIRED') setNeedsReauth(true);
      else refuse(t('enable.failedTitle'), engineErrorText(t, error, t('enable.failedOffline')));
    } finally {
      setPending(false);
    }
  };

  const switchOff = async (): Promise<void> => {
    if (!loader) return;
    setPending(true);
    try {
      await (await loader()).wipe('user');
      setOn(false);
      setConfirmOff(false);
      toast({ title: t('enable.offTitle'), description: t('enable.offDescription') });
    } catch (error) {
      refuse(t('enable.offFailed'), engineErrorText(t, error, t('common:anError')));
    } finally {
      setPending(false);
    }
  };

  return (
    <Card>
      <CardHeader>
        <CardTitle id="offline-card-title">{t('enable.title')}</CardTitle>
        <CardDescription>{on ? t('enable.onDescription') : t('enable.description')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <FormAlert refusal={refusal} />
        {on ? (
          <>
            <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-900">
              {t('enable.isOn')}
            </p>
            <div>
              <Button variant="destructive" onClick={() => setConfirmOff(true)} disabled={!loader}>
                {t('enable.switchOff')}
              </Button>
            </div>
            <ConfirmDialog
              open={confirmOff}
              onCancel={() => setConfirmOff(false)}
              onConfirm={() => void switchOff()}
              title={t('enable.switchOffTitle')}
              description={t('enable.switchOffDescription')}
              confirmText={t('enable.switchOff')}
              cancelText={t('enable.cancel')}
              pending={pending}
              pendingText={t('enable.switchingOff')}
            />
          </>
        ) : needsReauth ? (
          reauth(
            () => {
              setNeedsReauth(false);
              void enable();
            },
            <Button variant="secondary" onClick={() => setNeedsReauth(false)}>
              {t('enable.cancel')}
            </Button>,
            t('enable.reauthIntro'),
          )
        ) : (
          <form
            noValidate
            aria-labelledby="offline-card-title"
            className="grid gap-4 sm:grid-cols-2"
            onSubmit={(e) => {
              e.preventDefault();
              void enable();
            }}
          >
            <div className="sm:col-span-2">
              <FormField label={t('enable.label')} hint={t('enable.labelHint')} error={problems.label} required>
                <Input value={label} onChange={(e) => setLabel(e.target.value)} maxLength={100} autoComplete="off" />
              </FormField>
            </div>
            <FormField label={t('enable.pin')} hint={t('enable.pinHint')} error={problems.pin} required>
              <Input
                type="password"
                inputMode="numeric"
                autoComplete="new-password"
                maxLength={PIN_MAX_DIGITS}
                value={pin}
                onChange={(e) => setPin(e.target.value)}
              />
            </FormField>
            <FormField label={t('enable.pinAgain')} error={problems.again} required>
              <Input
                type="password"
                inputMode="numeric"
                autoComplete="new-password"
                maxLength={PIN_MAX_DIGITS}
                value={again}
                onChange={(e) => setAgain(e.target.value)}
              />
            </FormField>
            <div className="sm:col-span-2">
              <Button type="submit" pending={pending} pendingText={t('enable.enabling')} disabled={!loader}>
                {t('enable.submit')}
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
