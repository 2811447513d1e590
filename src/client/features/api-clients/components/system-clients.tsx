// Administration: FHIR system clients (issue 14 item 5, decision 020). An administrator creates a client (a name and
// what it may read or add, per kind of record), is shown its token once with a copy button and a warning, sees the
// clients with when each was last used and when its token expires, issues a client a new token (shown once, the old
// one stops at once; decision 030) and revokes one, each after confirming.
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import {
  apiClientInput,
  FHIR_RESOURCE_TYPES,
  scopeFor,
  WRITABLE_FHIR_TYPES,
  DEFAULT_API_CLIENT_LIFETIME,
  type ApiClient,
  type ApiClientLifetime,
  type CreatedApiClient,
} from '../../../../contracts/api-clients';
import { permissionsLacking, type FhirAccess } from '../../../../contracts/fhir-scopes';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { Dialog } from '../../../components/ui/dialog';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/toast';
import { errorText } from '../../../lib/error-text';
import { apiClientsQueryOptions, useCreateApiClient, useIssueApiClientToken, useRevokeApiClient } from '../api/api-clients';
import { ClientRow } from './client-row';
import { LifetimeField } from './lifetime-field';
import { SmartSettingsDialog } from './smart-settings';

const ACCESSES: readonly FhirAccess[] = ['read', 'write'];

/** The token of the client just created: shown this once, with a copy button and a warning. */
function NewToken({ created, onDone }: { created: CreatedApiClient; onDone: () => void }): React.JSX.Element {
  const { t } = useTranslation('users');
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const copy = (): void => {
    navigator.clipboard.writeText(created.token).then(
      () => setCopied('yes'),
      () => setCopied('failed'),
    );
  };
  return (
    <section aria-labelledby="client-token-title" className="flex flex-col gap-3 rounded-md border border-yellow-300 bg-yellow-50 p-4">
      <h3 id="client-token-title" tabIndex={-1} ref={(el) => el?.focus()} className="font-semibold text-slate-900 focus:outline-none">
        {t('clients.tokenTitle', { name: created.client.name })}
      </h3>
      <p role="alert" className="text-sm text-yellow-900">
        {t('clients.tokenWarning')}
      </p>
      <FormField label={t('clients.tokenLabel')}>
        <Input
          readOnly
          value={created.token}
          className="font-mono text-xs"
          onFocus={(e) => e.currentTarget.select()}
          data-testid="client-token"
        />
      </FormField>
      <div className="flex flex-wrap items-center gap-2">
        <Button variant="secondary" onClick={copy}>
          {t('clients.copy')}
        </Button>
        <Button onClick={onDone}>{t('clients.tokenDone')}</Button>
        <span role="status" className="text-sm text-slate-700">
          {copied === 'yes' ? t('clients.copied') : copied === 'failed' ? t('clients.copyFailed') : ''}
        </span>
      </div>
    </section>
  );
}

function CreateClientForm({
  onCreated,
  held,
}: {
  onCreated: (created: CreatedApiClient) => void;
  held: readonly string[];
}): React.JSX.Element {
  const { t } = useTranslation(['users', 'validation', 'common']);
  const create = useCreateApiClient();
  // A client may only be given what its creator may do (issue 21 item 5): the other boxes are greyed out.
  const mayGive = (scope: string): boolean => permissionsLacking([scope], held).length === 0;
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ReadonlySet<string>>(new Set());
  const [lifetimeDays, setLifetimeDays] = useState<ApiClientLifetime>(DEFAULT_API_CLIENT_LIFETIME);
  const [errors, setErrors] = useState<{ name?: string; scopes?: string }>({});

  const toggle = (scope: string, on: boolean): void =>
    setScopes((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    const parsed = apiClientInput.safeParse({ name, scopes: [...scopes], lifetimeDays });
    if (!parsed.success) {
      const found: { name?: string; scopes?: string } = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'name' ? 'name' : 'scopes';
        found[field] ??= t(issue.message, { defaultValue: t('validation:invalidValue') });
      }
      setErrors(found);
      return;
    }
    setErrors({});
    create.mutate(parsed.data, {
      onSuccess: (created) => {
        toast({ title: t('clients.toast.createdTitle') });
        setName('');
        setScopes(new Set());
        setLifetimeDays(DEFAULT_API_CLIENT_LIFETIME);
        onCreated(created);
      },
      onError: (error) =>
        toast({ title: t('clients.toast.createFailed'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
    });
  };

  return (
    <form noValidate onSubmit={submit} aria-label={t('clients.createTitle')} className="flex flex-col gap-4">
      <FormField label={t('clients.name')} required error={errors.name} hint={t('clients.nameHint')}>
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />
      </FormField>
      <fieldset aria-describedby={errors.scopes ? 'client-scopes-error' : undefined} className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-slate-900">
          {t('clients.scopesLegend')}
          <span aria-hidden="true"> *</span>
        </legend>
        <p id="client-scopes-cap" className="text-sm text-slate-600">
          {t('clients.capHint')}
        </p>
        <table className="w-full text-left text-sm">
          <thead className="text-slate-500">
            <tr>
              <th scope="col" className="py-1 pr-2 font-medium">
                {t('clients.recordKind')}
              </th>
              {ACCESSES.map((access) => (
                <th key={access} scope="col" className="w-16 py-1 text-center font-medium">
                  {t(`clients.access.${access}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {FHIR_RESOURCE_TYPES.map((type) => (
              <tr key={type}>
                <th scope="row" className="py-1.5 pr-2 font-normal">
                  {t(`clients.types.${type}`)}
                </th>
                {ACCESSES.map((access) => {
                  const scope = scopeFor(type, access);
                  const possible = access === 'read' || WRITABLE_FHIR_TYPES.includes(type);
                  const allowed = mayGive(scope);
                  return (
                    <td key={access} className="py-1.5 text-center">
                      {possible ? (
                        <input
                          type="checkbox"
                          className="h-5 w-5 accent-brand-600"
                          checked={scopes.has(scope) && allowed}
                          disabled={!allowed}
                          aria-describedby={allowed ? undefined : 'client-scopes-cap'}
                          onChange={(e) => toggle(scope, e.target.checked)}
                          aria-label={t('clients.scopeLabel', { type: t(`clients.types.${type}`), access: t(`clients.access.${access}`) })}
                        />
                      ) : (
                        <>
                          <span aria-hidden="true" className="text-slate-400">
                            -
                          </span>
                          <span className="sr-only">{t('clients.notPossible')}</span>
                        </>
                      )}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
        {errors.scopes ? (
          <p id="client-scopes-error" role="alert" className="text-sm text-danger-600">
            {errors.scopes}
          </p>
        ) : null}
      </fieldset>
      <LifetimeField value={lifetimeDays} onChange={setLifetimeDays} />
      <div>
        <Button type="submit" pending={create.isPending} pendingText={t('clients.creating')}>
          {t('clients.create')}
        </Button>
      </div>
    </form>
  );
}

/** `permissions`: the signed-in user's; a client may be given only what they allow (issue 21 item 5). */
export function SystemClients({ permissions }: { permissions: readonly string[] }): React.JSX.Element {
  const { t } = useTranslation(['users', 'common']);
  const clients = useQuery(apiClientsQueryOptions);
  const revoke = useRevokeApiClient();
  const issue = useIssueApiClientToken();
  const [created, setCreated] = useState<CreatedApiClient | null>(null);
  const [revoking, setRevoking] = useState<ApiClient | null>(null);
  const [issuing, setIssuing] = useState<ApiClient | null>(null);
  const [smart, setSmart] = useState<ApiClient | null>(null);
  const [issueDays, setIssueDays] = useState<ApiClientLifetime>(DEFAULT_API_CLIENT_LIFETIME);

  const askNewToken = (client: ApiClient): void => {
    setIssueDays(DEFAULT_API_CLIENT_LIFETIME);
    setIssuing(client);
  };
  const confirmNewToken = (): void => {
    if (!issuing) return;
    issue.mutate(
      { id: issuing.id, lifetimeDays: issueDays },
      {
        onSuccess: (issued) => {
          toast({ title: t('clients.toast.tokenIssuedTitle') });
          setCreated(issued);
        },
        onError: (error) =>
          toast({
            title: t('clients.toast.tokenIssueFailed'),
            description: errorText(t, error, t('common:anError')),
            variant: 'destructive',
          }),
        onSettled: () => setIssuing(null),
      },
    );
  };

  const confirmRevoke = (): void => {
    if (!revoking) return;
    revoke.mutate(revoking.id, {
      onSuccess: () => toast({ title: t('clients.toast.revokedTitle') }),
      onError: (error) =>
        toast({ title: t('clients.toast.revokeFailed'), description: errorText(t, error, t('common:anError')), variant: 'destructive' }),
      onSettled: () => setRevoking(null),
    });
  };

  return (
    <div className="flex flex-col gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{t('clients.createTitle')}</CardTitle>
          <p className="text-sm text-slate-700">{t('clients.intro')}</p>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          {created ? <NewToken created={created} onDone={() => setCreated(null)} /> : null}
          <CreateClientForm onCreated={setCreated} held={permissions} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle id="clients-title" tabIndex={-1} className="focus:outline-none">
            {t('clients.listTitle')}
          </CardTitle>
        </CardHeader>
        <CardContent>
          {clients.isPending ? (
            <p role="status">{t('common:loading')}</p>
          ) : clients.isError ? (
            <p role="alert" className="text-danger-600">
              {errorText(t, clients.error, t('common:anError'))}
            </p>
          ) : clients.data.length === 0 ? (
            <p className="text-slate-600">{t('clients.none')}</p>
          ) : (
            <ul className="divide-y divide-slate-200" aria-labelledby="clients-title">
              {clients.data.map((c) => (
                <ClientRow
                  key={c.id}
                  client={c}
                  onNewToken={askNewToken}
                  onRevoke={setRevoking}
                  onSmart={setSmart}
                  busy={revoke.isPending || issue.isPending}
                />
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Dialog
        open={issuing !== null}
        onOpenChange={(open) => !open && !issue.isPending && setIssuing(null)}
        title={t('clients.newTokenConfirm.title')}
        description={t('clients.newTokenConfirm.description', { name: issuing?.name ?? '' })}
        // To the new token when one was issued (it is shown once: the reader must land on it).
        closeFocus={() => document.getElementById('client-token-title')}
        returnFocus={() => document.getElementById('clients-title')}
      >
        <div className="flex flex-col gap-4">
          <LifetimeField value={issueDays} onChange={setIssueDays} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => setIssuing(null)} disabled={issue.isPending}>
              {t('clients.newTokenConfirm.cancel')}
            </Button>
            <Button onClick={confirmNewToken} pending={issue.isPending}>
              {t('clients.newTokenConfirm.confirm')}
            </Button>
          </div>
        </div>
      </Dialog>
      <SmartSettingsDialog client={smart} onClose={() => setSmart(null)} />
      <Dialog
        open={revoking !== null}
        onOpenChange={(open) => !open && !revoke.isPending && setRevoking(null)}
        title={t('clients.revokeConfirm.title')}
        description={t('clients.revokeConfirm.description', { name: revoking?.name ?? '' })}
        returnFocus={() => document.getElementById('clients-title')}
      >
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={() => setRevoking(null)} disabled={revoke.isPending}>
            {t('clients.revokeConfirm.cancel')}
          </Button>
          <Button variant="destructive" onClick={confirmRevoke} pending={revoke.isPending}>
            {t('clients.revokeConfirm.confirm')}
          </Button>
        </div>
      </Dialog>
    </div>
  );
}
