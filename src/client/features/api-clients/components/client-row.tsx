// One system client in the list: its name and state, scopes, who created it and when, when it was last used, when
// its token expires (or expired), and for a live client the buttons for a new token and for revoking it.
import { useTranslation } from '../../../lib/use-translation';
import type { TFunction } from '../../../lib/translator';
import type { ApiClient } from '../../../../contracts/api-clients';
import { parseFhirScope } from '../../../../contracts/fhir-scopes';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDateTime } from '../../../lib/dates';

/** A scope in the user's language ("Diagnoses: Read"), never the raw SMART code (issue 21 item 19). */
export function scopeText(t: TFunction, code: string): string {
  const scope = parseFhirScope(code);
  if (!scope) return code;
  return t('clients.scopeLabel', {
    type: scope.type === '*' ? t('clients.allTypes') : t(`clients.types.${scope.type}`),
    access: scope.access === '*' ? t('clients.allAccess') : t(`clients.access.${scope.access}`),
  });
}

interface ClientRowProps {
  client: ApiClient;
  onNewToken: (c: ApiClient) => void;
  onRevoke: (c: ApiClient) => void;
  /** Opens its SMART keys and own limits (decision 050). */
  onSmart: (c: ApiClient) => void;
  busy: boolean;
}

export function ClientRow({ client, onNewToken, onRevoke, onSmart, busy }: ClientRowProps): React.JSX.Element {
  const { t } = useTranslation('users');
  const expired = new Date(client.expiresAt).getTime() <= Date.now();
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-start sm:justify-between">
      <div className="flex min-w-0 flex-col gap-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-semibold">
          <span className="break-words">{client.name}</span>
          {client.revokedAt ? (
            <Badge tone="gray">{t('clients.revoked')}</Badge>
          ) : expired ? (
            <Badge tone="red">{t('clients.expiredBadge')}</Badge>
          ) : (
            <Badge tone="green">{t('clients.active')}</Badge>
          )}
        </p>
        <p className="break-words text-xs text-slate-700">{client.scopes.map((code) => scopeText(t, code)).join(' · ')}</p>
        <p className="text-slate-600">{t('clients.createdBy', { date: formatDateTime(client.createdAt), name: client.createdBy })}</p>
        <p className="text-slate-600">
          {client.lastUsedAt ? t('clients.lastUsed', { date: formatDateTime(client.lastUsedAt) }) : t('clients.neverUsed')}
        </p>
        <p className="text-slate-600">
          {client.jwks ? t('clients.smart.keysCount', { count: client.jwks.keys.length }) : t('clients.smart.noKeys')}
          {client.searchesPerMinute !== null || client.openingsPerHour !== null
            ? ` · ${t('clients.smart.ownLimits', {
                searches: client.searchesPerMinute ?? t('clients.smart.default'),
                openings: client.openingsPerHour ?? t('clients.smart.default'),
              })}`
            : ''}
        </p>
        {client.revokedAt ? (
          <p className="text-slate-600">
            {t('clients.revokedBy', { date: formatDateTime(client.revokedAt), name: client.revokedBy ?? '-' })}
          </p>
        ) : (
          <p className={expired ? 'font-medium text-danger-600' : 'text-slate-600'}>
            {t(expired ? 'clients.expired' : 'clients.expires', { date: formatDateTime(client.expiresAt) })}
          </p>
        )}
      </div>
      {client.revokedAt ? null : (
        <div className="flex flex-wrap gap-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => onNewToken(client)}
            aria-label={t('clients.newTokenClient', { name: client.name })}
          >
            {t('clients.newToken')}
          </Button>
          <Button
            size="sm"
            variant="secondary"
            disabled={busy}
            onClick={() => onSmart(client)}
            aria-label={t('clients.smart.openClient', { name: client.name })}
          >
            {t('clients.smart.open')}
          </Button>
          <Button
            size="sm"
            variant="destructive"
            disabled={busy}
            onClick={() => onRevoke(client)}
            aria-label={t('clients.revokeClient', { name: client.name })}
          >
            {t('clients.revoke')}
          </Button>
        </div>
      )}
    </li>
  );
}
