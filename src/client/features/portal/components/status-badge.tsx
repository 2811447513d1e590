// Status badges of the portal lists (SPEC §4): 'active' stands out for diagnoses and medications; allergy severity
// as high (severe), medium (moderate) or other.
import { useTranslation } from 'react-i18next';
import { Badge, type BadgeTone } from '../../../components/ui/badge';

export type BadgeKind = 'diagnosis' | 'appointment' | 'allergy' | 'medication';

export function toneOf(kind: BadgeKind, value: string): BadgeTone {
  const v = value.trim().toLowerCase();
  switch (kind) {
    case 'diagnosis':
      return v === 'active' ? 'destructive' : v === 'chronic' ? 'yellow' : 'gray';
    case 'medication':
      return v === 'active' ? 'green' : 'gray';
    case 'appointment':
      return v === 'scheduled' ? 'blue' : v === 'completed' ? 'green' : 'gray';
    case 'allergy':
      if (v === 'high' || v === 'severe') return 'destructive';
      if (v === 'medium' || v === 'moderate') return 'yellow';
      return 'neutral';
  }
}

/** The value translated when known (Active, Resolved, Severe...), else shown as recorded. */
export function StatusBadge({ kind, value }: { kind: BadgeKind; value: string }): React.JSX.Element {
  const { t } = useTranslation('portal');
  const key = value.trim().toLowerCase();
  const label = /^[a-z]+$/.test(key) ? t(`status.${key}`, { defaultValue: value }) : value;
  return <Badge tone={toneOf(kind, value)}>{label}</Badge>;
}
