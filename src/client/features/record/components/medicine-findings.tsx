// A medicine's details (issue 25 item 4; decision 045): every finding of the medicine checks for one active coded
// medicine, the minor ones too (which never interrupt and are shown nowhere else), each with its tier, the clinical
// statement in the reader's language and the knowledge version. A closed <details> under the medicine in the list.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { statementIn, type MedicineFindingView } from '../../../../contracts/medicine-checks';
import { Badge } from '../../../components/ui/badge';
import { recordMedicineChecksQueryOptions } from '../api/record-queries';

const TONES = { contraindicated: 'red', serious: 'yellow', minor: 'gray' } as const;

function Finding({ finding }: { finding: MedicineFindingView }): React.JSX.Element {
  const { t, i18n } = useTranslation('record');
  return (
    <li className="flex flex-col gap-0.5">
      <span>
        <Badge tone={TONES[finding.tier]} className="mr-2">
          {t(`medicineChecks.tier.${finding.tier}`)}
        </Badge>
        {t(`warnings.${finding.code}`, { substance: finding.substance, other: finding.other })}
      </span>
      <span>{statementIn(finding, i18n.language)}</span>
      <span className="text-xs text-slate-600">{t('medicineChecks.knowledge', { version: finding.version, source: finding.source })}</span>
    </li>
  );
}

/** The findings of one medication of the record; nothing when it has none. */
export function MedicineFindings({ patientId, medicationId }: { patientId: number; medicationId: number }): React.JSX.Element | null {
  const { t } = useTranslation('record');
  const checks = useQuery(recordMedicineChecksQueryOptions(patientId));
  if (!checks.data) return null;
  if (!checks.data.available) return <p className="text-sm text-red-900">{t('medicineChecks.unavailable')}</p>;
  const findings = checks.data.medications.find((m) => m.id === medicationId)?.findings ?? [];
  if (findings.length === 0) return null;
  return (
    <details className="text-sm text-slate-800">
      <summary className="cursor-pointer rounded font-medium text-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2">
        {t('medicineChecks.details', { count: findings.length })}
      </summary>
      <ul className="mt-2 flex flex-col gap-2 pl-1">
        {findings.map((f, i) => (
          <Finding key={`${f.rule}-${f.other}-${i}`} finding={f} />
        ))}
      </ul>
    </details>
  );
}
