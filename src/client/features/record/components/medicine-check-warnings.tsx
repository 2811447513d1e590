// The medicine checks in the add dialog (decision 043): each warning with its tier, both substances, the statement
// and the knowledge version it came from; the override reason a contraindicated warning needs; and the notice that
// the checks are unavailable (the status route said so, or it could not be read), never a silent pass.
import { useTranslation } from '../../../lib/use-translation';
import { OVERRIDE_REASON_MAX, OVERRIDE_REASON_MIN, statementIn } from '../../../../contracts/medicine-checks';
import type { RecordKind } from '../../../../contracts/kinds';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import { Badge } from '../../../components/ui/badge';
import { FormField } from '../../../components/ui/form-field';
import { Textarea } from '../../../components/ui/textarea';
import { useMedicineChecksStatus } from '../api/medicine-checks-status';

/** The kinds whose adds the medicine checks look at. */
const CHECKED_KINDS: readonly RecordKind[] = ['medications', 'allergies'];

export const needsOverrideReason = (warnings: readonly RecordWarning[]): boolean => warnings.some((w) => w.tier === 'contraindicated');
export const overrideReasonReady = (reason: string): boolean => reason.trim().length >= OVERRIDE_REASON_MIN;

/** One warning: a medicine check's with its tier, statement and knowledge version; any other as its text. */
export function WarningText({ warning }: { warning: RecordWarning }): React.JSX.Element {
  const { t, i18n } = useTranslation('record');
  const text = t(`warnings.${warning.code}`, { ...warning.params, defaultValue: warning.message });
  if (!warning.tier) return <>{text}</>;
  const params = warning.params ?? {};
  const statement = statementIn(params, i18n.language);
  return (
    <span className="inline-flex flex-col gap-0.5">
      <span>
        <Badge tone={warning.tier === 'contraindicated' ? 'red' : 'yellow'} className="mr-2">
          {t(`medicineChecks.tier.${warning.tier}`)}
        </Badge>
        {text}
      </span>
      {statement ? <span>{statement}</span> : null}
      {params.version ? (
        <span className="text-xs text-slate-600">
          {t('medicineChecks.knowledge', { version: params.version, source: params.source ?? '' })}
        </span>
      ) : null}
    </span>
  );
}

/** The override reason a contraindicated warning needs before "Save anyway". */
export function OverrideReasonField({ value, onChange }: { value: string; onChange: (v: string) => void }): React.JSX.Element {
  const { t } = useTranslation('record');
  return (
    <FormField label={t('medicineChecks.overrideReason')} required>
      <Textarea value={value} maxLength={OVERRIDE_REASON_MAX} onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}

/** "Medicine checks are unavailable" on the medicines and allergies forms when the checks cannot run. */
export function MedicineChecksNotice({ kind }: { kind: RecordKind }): React.JSX.Element | null {
  const { t } = useTranslation('record');
  const checked = CHECKED_KINDS.includes(kind);
  const status = useMedicineChecksStatus(checked);
  if (!checked || status.isPending) return null;
  if (status.data?.available) return null;
  return (
    <p role="status" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 sm:col-span-2">
      {t('medicineChecks.unavailable')}
    </p>
  );
}
