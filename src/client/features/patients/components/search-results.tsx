// The results panel (SPEC §2): 'N patient(s) found', rows as 'Last, First' with DOB (en-GB), NC number, sex and
// the first two parts of the address; fuzzy results say why they matched. Staff who may add patients also get a
// 'Portal code' button per row (decision 016: a new portal activation code, at the desk). A patient found by the NC
// number of a record joined into theirs says so (decision 048).
import { useTranslation } from '../../../lib/use-translation';
import type { PatientSearchResult } from '../../../../contracts/patients';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { formatDate } from '../../../lib/dates';

export const shortAddress = (address: string): string =>
  address
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .slice(0, 2)
    .join(', ');

export function SearchResults({
  results,
  onSelect,
  onIssueCode,
}: {
  results: PatientSearchResult[];
  onSelect: (p: PatientSearchResult) => void;
  onIssueCode?: ((p: PatientSearchResult) => void) | undefined;
}): React.JSX.Element {
  const { t } = useTranslation(['search', 'patients']);
  return (
    <section aria-labelledby="results-title" className="rounded-lg border border-slate-200 bg-white p-4">
      <h3 id="results-title" className="text-lg font-semibold">
        {t('resultsTitle')}
      </h3>
      <p role="status" className="text-sm text-slate-600">
        {t('found', { count: results.length })}
      </p>
      {results.length === 0 ? (
        <div className="mt-3 rounded-md bg-slate-50 p-4 text-sm">
          <p className="font-medium">{t('noneFound')}</p>
          <p className="text-slate-600">{t('checkParameters')}</p>
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {results.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center gap-2">
              <button
                type="button"
                onClick={() => onSelect(p)}
                className="flex min-w-0 flex-1 flex-col items-start gap-1 rounded px-2 py-3 text-left hover:bg-brand-50 focus:bg-brand-50"
              >
                <span className="font-semibold">
                  {p.lastName}, {p.firstName}
                </span>
                <span className="text-sm text-slate-600">
                  {t('dob')}: {formatDate(p.dateOfBirth)} · {t('nc')}: <span className="font-mono">{p.idNumber}</span> ·{' '}
                  {t(`sex.${p.sex}`, { defaultValue: p.sex })}
                </span>
                {p.address ? <span className="text-sm text-slate-500">{shortAddress(p.address)}</span> : null}
                {p.joinedFrom ? (
                  <span className="text-sm text-amber-800">
                    {t('joinedFrom')} <span className="font-mono">{p.joinedFrom.idNumber}</span>
                  </span>
                ) : null}
                {p.matchReasons?.length ? (
                  <span className="flex flex-wrap gap-1" aria-label={t('whyMatched')}>
                    {p.matchReasons.map((r) => (
                      <Badge key={r} tone="blue">
                        {t(r.replace(/^search:/, ''))}
                      </Badge>
                    ))}
                  </span>
                ) : null}
              </button>
              {onIssueCode ? (
                <Button
                  variant="secondary"
                  size="sm"
                  aria-label={t('patients:issue.buttonLabel', { name: `${p.firstName} ${p.lastName}` })}
                  onClick={() => onIssueCode(p)}
                >
                  {t('patients:issue.button')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
