// A system client's SMART Backend Services keys and its own limits (issue 26 item 5, decision 050), in a dialog from
// its row: the client id its signed JWT names (iss and sub), the token endpoint, its public keys (a JWKS pasted as
// JSON) and its searches per minute and record openings per hour (empty: the server's defaults).
import { useState, type FormEvent } from 'react';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { apiClientSmartInput, type ApiClient } from '../../../../contracts/api-clients';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/toast';
import { errorCodeOf } from '../../../lib/api-error';
import { errorText } from '../../../lib/error-text';
import { urlKey } from '../../../lib/query-keys';
import { useSetApiClientSmart } from '../api/api-clients';

/** The SMART configuration: its token endpoint names the server's public address, which an assertion's aud must be. */
const smartConfigurationQuery = queryOptions<{ token_endpoint: string }>({
  queryKey: urlKey('/fhir/R4/.well-known/smart-configuration'),
  staleTime: Infinity,
});

type Field = 'jwks' | 'searchesPerMinute' | 'openingsPerHour';

const limitText = (n: number | null): string => (n === null ? '' : String(n));
/** An empty box is "the default" (null); anything else must be a whole number (the schema says which). */
const limitValue = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));

function SmartForm({ client, onDone }: { client: ApiClient; onDone: () => void }): React.JSX.Element {
  const { t } = useTranslation(['users', 'validation', 'common']);
  const save = useSetApiClientSmart();
  const configuration = useQuery(smartConfigurationQuery);
  const [jwks, setJwks] = useState(client.jwks ? JSON.stringify(client.jwks, null, 2) : '');
  const [searches, setSearches] = useState(limitText(client.searchesPerMinute));
  const [openings, setOpenings] = useState(limitText(client.openingsPerHour));
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    let keys: unknown = null;
    const found: Partial<Record<Field, string>> = {};
    if (jwks.trim() !== '') {
      try {
        keys = JSON.parse(jwks);
      } catch {
        found.jwks = t('validation:invalidJwks');
      }
    }
    const parsed = apiClientSmartInput.safeParse({
      jwks: keys,
      searchesPerMinute: limitValue(searches),
      openingsPerHour: limitValue(openings),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = (issue.path[0] as Field | undefined) ?? 'jwks';
        found[field] ??= t(issue.message, { defaultValue: t('validation:invalidValue') });
      }
    }
    if (Object.keys(found).length > 0 || !parsed.success) {
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(
      { id: client.id, ...parsed.data },
      {
        onSuccess: () => {
          toast({ title: t('clients.smart.saved') });
          onDone();
        },
        onError: (error) => {
          // The server checks the keys themselves (public, RSA 2048+ or EC P-384, with a kid): say so at the box.
          if (errorCodeOf(error) === 'VALIDATION_FAILED') setErrors({ jwks: t('validation:invalidJwks') });
          else
            toast({ title: t('clients.smart.saveFailed'), description: errorText(t, error, t('common:anError')), variant: 'destructive' });
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} aria-label={t('clients.smart.title')} className="flex flex-col gap-4">
      <FormField label={t('clients.smart.clientId')} hint={t('clients.smart.clientIdHint')}>
        <Input readOnly value={client.id} className="font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
      </FormField>
      <FormField label={t('clients.smart.tokenEndpoint')}>
        <Input
          readOnly
          value={configuration.data?.token_endpoint ?? ''}
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
        />
      </FormField>
      <FormField label={t('clients.smart.jwks')} hint={t('clients.smart.jwksHint')} error={errors.jwks}>
        <Textarea
          value={jwks}
          onChange={(e) => setJwks(e.target.value)}
          rows={6}
          spellCheck={false}
          className="font-mono text-xs"
          placeholder='{"keys": [...]}'
        />
      </FormField>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label={t('clients.smart.searchesPerMinute')} hint={t('clients.smart.limitHint')} error={errors.searchesPerMinute}>
          <Input inputMode="numeric" value={searches} onChange={(e) => setSearches(e.target.value)} autoComplete="off" />
        </FormField>
        <FormField label={t('clients.smart.openingsPerHour')} hint={t('clients.smart.limitHint')} error={errors.openingsPerHour}>
          <Input inputMode="numeric" value={openings} onChange={(e) => setOpenings(e.target.value)} autoComplete="off" />
        </FormField>
      </div>
      <div className="flex flex-wrap justify-end gap-2">
        <Button type="button" variant="secondary" onClick={onDone} disabled={save.isPending}>
          {t('clients.smart.cancel')}
        </Button>
        <Button type="submit" pending={save.isPending} pendingText={t('clients.smart.saving')}>
          {t('clients.smart.save')}
        </Button>
      </div>
    </form>
  );
}

export function SmartSettingsDialog({ client, onClose }: { client: ApiClient | null; onClose: () => void }): React.JSX.Element {
  const { t } = useTranslation('users');
  return (
    <Dialog
      open={client !== null}
      onOpenChange={(open) => !open && onClose()}
      size="lg"
      title={t('clients.smart.title')}
      description={t('clients.smart.description', { name: client?.name ?? '' })}
      returnFocus={() => document.getElementById('clients-title')}
    >
      {client ? <SmartForm key={client.id} client={client} onDone={onClose} /> : <span />}
    </Dialog>
  );
}
