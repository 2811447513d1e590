// Status badges of the portal lists (SPEC §4), coloured by the one rule of components/ui/status-tone.ts.
import { useTranslation } from 'react-i18next';
import { Badge } from '../../../components/ui/badge';
import { statusTone, type StatusKind } from '../../../components/ui/status-tone';

/** The value translated when known (Active, Resolved, Severe...), else shown as recorded. */
export function StatusBadge({ kind, value }: { kind: StatusKind; value: string }): React.JSX.Element {
  const { t } = useTranslation('portal');
  const key = value.trim().toLowerCase();
  const label = /^[a-z]+$/.test(key) ? t(`status.${key}`, { defaultValue: value }) : value;
  return <Badge tone={statusTone(kind, value)}>{label}</Badge>;
}
