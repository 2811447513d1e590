// Audit and Compliance screen (SPEC §2): Back to Dashboard and two tabs.
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../../components/ui/button';
import { Tabs } from '../../../components/ui/tabs';
import { AuditLogsTab } from './audit-logs-tab';
import { ReportsTab } from './reports-tab';
import { MainHeading } from '../../../components/ui/main-heading';

export function AuditScreen({ onBack, canReadLogs, canReadReports }: { onBack: () => void; canReadLogs: boolean; canReadReports: boolean }): React.JSX.Element {
  const { t } = useTranslation('audit');
  const [tab, setTab] = useState(canReadLogs ? 'logs' : 'reports');
  const items = [
    ...(canReadLogs ? [{ value: 'logs', label: t('logsTab'), content: <AuditLogsTab /> }] : []),
    ...(canReadReports ? [{ value: 'reports', label: t('reportsTab'), content: <ReportsTab /> }] : []),
  ];
  return (
    <section aria-labelledby="audit-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <MainHeading id="audit-title" className="text-xl font-semibold">{t('title')}</MainHeading>
        <Button variant="secondary" onClick={onBack}>{t('back')}</Button>
      </div>
      <Tabs label={t('title')} value={tab} onValueChange={setTab} items={items} />
    </section>
  );
}
