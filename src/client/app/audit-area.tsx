// The audit screen with the privacy review tab for reviewers (loaded when opened: dashboard-screen.tsx).
import { useTranslation } from '../lib/use-translation';
import { hasPermission, type CurrentUser } from '../features/auth/api/current-user';
import { AuditScreen } from '../features/audit/components/audit-screen';
import { ReviewQueueTab } from '../features/privacy/components/review-queue-tab';

export function AuditArea({
  user,
  onBack,
  canReview,
  view,
}: {
  user: CurrentUser;
  onBack: () => void;
  canReview: boolean;
  view: 'audit' | 'reviews';
}): React.JSX.Element {
  const { t } = useTranslation('privacy');
  return (
    <AuditScreen
      onBack={onBack}
      canReadLogs={hasPermission(user, 'audit.read')}
      canReadReports={hasPermission(user, 'reports.read')}
      extraTabs={canReview ? [{ value: 'reviews', label: t('tab'), content: <ReviewQueueTab /> }] : []}
      initialTab={view === 'reviews' && canReview ? 'reviews' : undefined}
    />
  );
}
