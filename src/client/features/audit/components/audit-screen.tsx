// Audit and Compliance screen (SPEC §2): Back to Dashboard and two tabs.
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import { Button } from '../../../components/ui/button';
import { Tabs, type TabItem } from '../../../components/ui/tabs';
import { AuditLogsTab } from './audit-logs-tab';
import { ReportsTab } from './reports-tab';
import { MedicineReportTab } from './medicine-report-tab';
import { MainHeading } from '../../../components/ui/main-heading';

export function AuditScreen({
  onBack,
  canReadLogs,
  canReadReports,
  extraTabs = [],
  initialTab,
}: {
  onBack: () => void;
  canReadLogs: boolean;
  canReadReports: boolean;
  /** Tabs composed in by the app (e.g. the privacy review queue), after the audit's own. */
  extraTabs?: TabItem[];
  initialTab?: string | undefined;
}): React.JSX.Element {
  const { t } = useTranslation('audit');
  const [tab, setTab] = useState(initialTab ?? (canReadLogs ? 'logs' : canReadReports ? 'reports' : (extraTabs[0]?.value ?? 'logs')));
  const items = [
    ...(canReadLogs ? [{ value: 'logs', label: t('logsTab'), content: <AuditLogsTab /> }] : []),
    ...(canReadReports ? [{ value: 'reports', label: t('reportsTab'), content: <ReportsTab /> }] : []),
    ...(canReadReports ? [{ value: 'medicine', label: t('medicineReport.tab'), content: <MedicineReportTab /> }] : []),
    ...extraTabs,
  ];
  return (
    <section aria-labelledby="audit-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <MainHeading id="audit-title" className="text-xl font-semibold">
          {t('title')}
        </MainHeading>
        <Button variant="secondary" onClick={onBack}>
          {t('back')}
        </Button>
      </div>
      <Tabs label={t('title')} value={tab} onValueChange={setTab} items={items} />
    </section>
  );
}
