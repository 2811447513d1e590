// The admin screen's Devices tab (issue 27 item 2, decision 061; users.approve): every device with offline mode, its
// user, facility, name, last contact and status, newest first; Revoke asks for confirmation and a reason. A revoked
// device's next contact wipes what it keeps.
import { useState } from 'react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { revokeDeviceInput, type Device } from '../../../../contracts/offline';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { LoadMoreButton } from '../../../components/ui/load-more-button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { formatDateTime } from '../../../lib/dates';
import { errorText } from '../../../lib/error-text';
import { devicesQueryOptions, useRevokeDevice } from '../api/devices';

function RevokeDialog({ device, onClose }: { device: Device | null; onClose: () => void }): React.JSX.Element {
  const { t } = useTranslation(['offline', 'validation', 'common']);
  const revoke = useRevokeDevice();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const close = (): void => {
    setReason('');
    setError(undefined);
    onClose();
  };
  const submit = (): void => {
    if (!device) return;
    const parsed = revokeDeviceInput.safeParse({ reason });
    if (!parsed.success) return setError(t(parsed.error.issues[0]?.message ?? 'validation:invalidValue'));
    if (parsed.data.reason === '') return setError(t('devices.reasonRequired'));
    setError(undefined);
    revoke.mutate(
      { id: device.id, reason: parsed.data.reason },
      {
        onSuccess: () => {
          toast({ title: t('devices.revoked', { label: device.label }) });
          close();
        },
        onError: (e) =>
          toast({ title: t('devices.revokeFailed'), description: errorText(t, e, t('common:anError')), variant: 'destructive' }),
      },
    );
  };
  return (
    <Dialog
      open={device !== null}
      onOpenChange={(open) => !open && !revoke.isPending && close()}
      title={t('devices.revokeTitle')}
      description={device ? t('devices.revokeDescription', { label: device.label, user: device.userName }) : undefined}
    >
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <FormField label={t('devices.reason')} error={error} required>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={500} rows={3} />
        </FormField>
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={close} disabled={revoke.isPending}>
            {t('devices.cancel')}
          </Button>
          <Button type="submit" variant="destructive" pending={revoke.isPending} pendingText={t('devices.revoking')}>
            {t('devices.revoke')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export function DevicesList(): React.JSX.Element {
  const { t } = useTranslation(['offline', 'common']);
  const list = useInfiniteQuery(devicesQueryOptions());
  const [revoking, setRevoking] = useState<Device | null>(null);
  const devices = list.data?.pages.flatMap((p) => p.devices) ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle id="devices-title">{t('devices.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        <p className="text-sm text-slate-700">{t('devices.intro')}</p>
        {!list.data ? (
          <p role="status">{list.isError ? errorText(t, list.error, t('common:anError')) : t('common:loading')}</p>
        ) : devices.length === 0 ? (
          <p className="text-sm text-slate-600">{t('devices.none')}</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200" aria-labelledby="devices-title">
            {devices.map((d) => (
              <li key={d.id} className="flex flex-col gap-1 py-3" data-testid="device">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="break-all">{d.label}</span>
                  <Badge tone={d.status === 'active' ? 'green' : 'gray'}>{t(`devices.status.${d.status}`)}</Badge>
                </p>
                <p className="break-words text-sm text-slate-600">
                  {d.userName} · {d.facility ?? t('devices.noFacility')}
                </p>
                <p className="text-sm text-slate-600">
                  {t('devices.lastContact', { time: formatDateTime(d.lastContactAt) })}
                  {d.revokedAt ? ` · ${t('devices.revokedAt', { time: formatDateTime(d.revokedAt) })}` : ''}
                </p>
                {d.status === 'active' ? (
                  <div>
                    <Button
                      size="sm"
                      variant="destructive"
                      aria-label={t('devices.revokeLabel', { label: d.label, user: d.userName })}
                      onClick={() => setRevoking(d)}
                    >
                      {t('devices.revoke')}
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        <LoadMoreButton list={list} label={t('devices.more')} pendingText={t('common:loading')} />
        <RevokeDialog device={revoking} onClose={() => setRevoking(null)} />
      </CardContent>
    </Card>
  );
}
