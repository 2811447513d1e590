// The reviewer's choices before a join (issue 24 items 3-4): which record survives (with the suggested one and why),
// for each demographic field that differs which value to keep (the survivor's by default; the difference marked with
// a visible mark and a screen-reader word), and, when both records have portal sign-in, whose PIN keeps working.
import { useTranslation } from '../../../lib/use-translation';
import type { PairRecord } from '../../../../contracts/duplicates';
import { JOIN_DETAIL_FIELDS, type JoinDetailField, type JoinKeepField } from '../../../../contracts/patient-joins';
import { formatDate } from '../../../lib/dates';

export type Keep = Partial<Record<JoinKeepField, number>>;

const valueOf = (record: PairRecord, field: JoinDetailField): string => {
  const v = record.patient[field] ?? '';
  return field === 'dateOfBirth' && v ? formatDate(v) : v;
};
export const differs = (a: PairRecord, b: PairRecord, field: JoinDetailField): boolean =>
  (a.patient[field] ?? '').trim() !== (b.patient[field] ?? '').trim();

/** The suggested survivor: the record with more clinical rows; when even, the older one (the lower id). */
export function suggestedSurvivor(records: readonly [PairRecord, PairRecord]): { index: 0 | 1; why: 'rows' | 'older' } {
  const [a, b] = records;
  if (a.clinicalRows !== b.clinicalRows) return { index: a.clinicalRows > b.clinicalRows ? 0 : 1, why: 'rows' };
  return { index: a.patient.id < b.patient.id ? 0 : 1, why: 'older' };
}

const radioClass = 'h-4 w-4 shrink-0 accent-brand-600';

function Choice({
  name,
  checked,
  onChange,
  children,
}: {
  name: string;
  checked: boolean;
  onChange: () => void;
  children: React.ReactNode;
}): React.JSX.Element {
  return (
    <label className="flex min-w-0 cursor-pointer items-start gap-2 rounded-md border border-slate-200 p-2 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50">
      <input type="radio" name={name} checked={checked} onChange={onChange} className={`${radioClass} mt-0.5`} />
      <span className="min-w-0 break-words">{children}</span>
    </label>
  );
}

export function SurvivorChoice({
  pairId,
  records,
  survivor,
  onChange,
}: {
  pairId: number;
  records: readonly [PairRecord, PairRecord];
  survivor: 0 | 1;
  onChange: (index: 0 | 1) => void;
}): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const suggested = suggestedSurvivor(records);
  const r = records[suggested.index];
  const other = records[suggested.index === 0 ? 1 : 0];
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 font-semibold text-slate-900">{t('duplicates.review.survivor')}</legend>
      <p className="text-sm text-slate-700">
        {suggested.why === 'rows'
          ? t('duplicates.review.survivorRows', {
              n: String(suggested.index + 1),
              rows: String(r.clinicalRows),
              other: String(other.clinicalRows),
            })
          : t('duplicates.review.survivorOlder', { n: String(suggested.index + 1) })}
      </p>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {records.map((record, i) => (
          <Choice key={record.patient.id} name={`survivor-${pairId}`} checked={survivor === i} onChange={() => onChange(i as 0 | 1)}>
            {t('duplicates.review.survivorOption', {
              n: String(i + 1),
              name: `${record.patient.firstName} ${record.patient.lastName}`,
              nc: record.patient.idNumber,
            })}
          </Choice>
        ))}
      </div>
      <p className="text-xs text-slate-600">{t('duplicates.review.survivorEffect')}</p>
    </fieldset>
  );
}

/** Both records' demographics field by field: a choice where they differ, one value where they agree. */
export function DetailChoices({
  pairId,
  records,
  keepOf,
  onKeep,
}: {
  pairId: number;
  records: readonly [PairRecord, PairRecord];
  /** The record (index) whose value the field keeps now. */
  keepOf: (field: JoinKeepField) => 0 | 1;
  onKeep: (field: JoinKeepField, index: 0 | 1) => void;
}): React.JSX.Element {
  const { t } = useTranslation('dashboard');
  const [a, b] = records;
  const blank = t('duplicates.review.blank');
  return (
    <section aria-labelledby={`pair-${pairId}-details`} className="flex flex-col gap-3">
      <h3 id={`pair-${pairId}-details`} className="font-semibold text-slate-900">
        {t('duplicates.review.details')}
      </h3>
      <p className="text-sm text-slate-700">
        {t('duplicates.field.idNumber')}: {t('duplicates.record', { n: '1' })} {a.patient.idNumber} · {t('duplicates.record', { n: '2' })}{' '}
        {b.patient.idNumber}
      </p>
      {JOIN_DETAIL_FIELDS.map((field) => {
        const label = t(`duplicates.field.${field}`);
        if (!differs(a, b, field))
          return (
            <div key={field} className="flex min-w-0 flex-wrap gap-1.5 text-sm">
              <span className="text-slate-500">{label}:</span>
              <span className="min-w-0 break-words">{valueOf(a, field) || blank}</span>
              <span className="text-xs text-slate-500">({t('duplicates.review.same')})</span>
            </div>
          );
        return (
          <fieldset key={field} className="flex flex-col gap-1.5">
            <legend className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-800">
              {t('duplicates.review.keep', { field: label })}
              <span className="rounded bg-yellow-100 px-1.5 text-xs font-semibold text-yellow-900">
                <span aria-hidden="true">≠ </span>
                {t('duplicates.review.differsMark')}
              </span>
            </legend>
            <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
              {records.map((record, i) => (
                <Choice
                  key={record.patient.id}
                  name={`keep-${pairId}-${field}`}
                  checked={keepOf(field) === i}
                  onChange={() => onKeep(field, i as 0 | 1)}
                >
                  {t('duplicates.review.keepOption', { n: String(i + 1), value: valueOf(record, field) || blank })}
                </Choice>
              ))}
            </div>
          </fieldset>
        );
      })}
    </section>
  );
}

/** Whose portal PIN keeps working, when both records have portal sign-in. */
export function PortalChoice({
  pairId,
  records,
  keepOf,
  onKeep,
}: {
  pairId: number;
  records: readonly [PairRecord, PairRecord];
  keepOf: (field: JoinKeepField) => 0 | 1;
  onKeep: (field: JoinKeepField, index: 0 | 1) => void;
}): React.JSX.Element | null {
  const { t } = useTranslation('dashboard');
  if (!records[0].portal || !records[1].portal) return null;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1 font-semibold text-slate-900">{t('duplicates.review.portal')}</legend>
      <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
        {records.map((record, i) => (
          <Choice
            key={record.patient.id}
            name={`keep-${pairId}-portal`}
            checked={keepOf('portal') === i}
            onChange={() => onKeep('portal', i as 0 | 1)}
          >
            {t('duplicates.review.portalOption', { n: String(i + 1) })}
          </Choice>
        ))}
      </div>
    </fieldset>
  );
}
