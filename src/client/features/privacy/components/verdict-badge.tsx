// A verdict (or "not reviewed") as a coloured badge.
import { useTranslation } from '../../../lib/use-translation';
import type { ReviewVerdict } from '../../../../contracts/privacy-review';
import { Badge, type BadgeTone } from '../../../components/ui/badge';

const tone: Record<ReviewVerdict, BadgeTone> = { JUSTIFIED: 'green', NOT_JUSTIFIED: 'red', FOLLOW_UP: 'yellow' };

export function VerdictBadge({ verdict }: { verdict: ReviewVerdict | null }): React.JSX.Element {
  const { t } = useTranslation('privacy');
  return verdict ? <Badge tone={tone[verdict]}>{t(`verdict.${verdict}`)}</Badge> : <Badge tone="gray">{t('unreviewed')}</Badge>;
}
