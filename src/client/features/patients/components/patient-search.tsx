// Patient search (SPEC §2, §4, §5, §8): three methods as radio cards, validation before sending, 'Searching...',
// toasts and the error mapping; a double submit within 300 ms is ignored and identical searches are cached.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import { Info } from 'lucide-react';
import type { PatientSearchInput, PatientSearchResult } from '../../../../contracts/patients';
import { Button } from '../../../components/ui/button';
import { FormField } from '../../../components/ui/form-field';
import { DateInput } from '../../../components/ui/date-input';
import { Input } from '../../../components/ui/input';
import { RadioCards } from '../../../components/ui/radio-cards';
import { Spinner } from '../../../components/ui/spinner';
import { toast } from '../../../components/ui/toast';
import { SEARCH_DEBOUNCE_MS, searchPayload, searchQueryOptions, type SearchForm } from '../api/search';
import { mapSearchError } from '../api/search-errors';
import { SearchResults } from './search-results';
import { MainHeading } from '../../../components/ui/main-heading';

// The search's schema (and with it the schema library) loads when the user starts on the form, not with the dashboard
// (issue 21 item 18: it was the largest part of the search page's script, parsed and run before the page could answer).
const loadSearchSchema = () => import('../../../../contracts/patients').then((m) => m.patientSearchInput);

const empty: SearchForm = {
  method: 'name-dob',
  lastName: '',
  dateOfBirth: '',
  idNumber: '',
  firstName: '',
  smartLastName: '',
  address: '',
  ageRangeMin: '0',
  ageRangeMax: '150',
};

/** The search's form and last sent search, held by the caller so they outlive the search screen (Back to Search). */
export interface SearchState {
  form: SearchForm;
  setForm: React.Dispatch<React.SetStateAction<SearchForm>>;
  payload: PatientSearchInput | null;
  setPayload: (payload: PatientSearchInput | null) => void;
}

export function useSearchState(): SearchState {
  const [form, setForm] = useState<SearchForm>(empty);
  const [payload, setPayload] = useState<PatientSearchInput | null>(null);
  return { form, setForm, payload, setPayload };
}

export function PatientSearch({
  onSelect,
  state,
  onIssueCode,
}: {
  onSelect: (patient: PatientSearchResult) => void;
  state: SearchState;
  /** Given to staff with patients.create: a 'Portal code' button per result (decision 016). */
  onIssueCode?: ((patient: PatientSearchResult) => void) | undefined;
}): React.JSX.Element {
  const { t } = useTranslation(['search', 'validation', 'common']);
  const { form, setForm, payload, setPayload } = state;
  const [issues, setIssues] = useState<Record<string, string>>({});
  const lastSubmit = useRef({ key: '', at: 0 });
  const search = useQuery({ ...searchQueryOptions(payload as PatientSearchInput), enabled: payload !== null });

  // Toasts once per outcome (SPEC §8): an empty result, or a mapped error.
  useEffect(() => {
    if (search.isSuccess && search.data.length === 0) {
      toast({ title: t('toast.noneTitle'), description: t('toast.noneDescription'), variant: 'destructive' });
    }
  }, [search.isSuccess, search.data, t]);
  useEffect(() => {
    if (!search.error) return;
    const mapped = mapSearchError(search.error);
    if (mapped.severity === 'critical') console.error('Critical search error', { code: mapped.code, timestamp: new Date().toISOString() });
    toast({ title: t('toast.failedTitle'), description: t(mapped.messageKey), variant: 'destructive' });
  }, [search.error, t]);

  const set = (k: keyof SearchForm) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [k]: e.target.value }));
  // The overall message is shown once below the fields; a field shows only a more specific message.
  const err = (k: string): string | undefined => (issues[k] && issues[k] !== issues.form ? t(issues[k]!) : undefined);

  const onSubmit = async (e: React.FormEvent): Promise<void> => {
    e.preventDefault();
    const parsed = (await loadSearchSchema()).safeParse(searchPayload(form));
    if (!parsed.success) {
      const next: Record<string, string> = { form: 'validation:searchInvalid' };
      for (const issue of parsed.error.issues) next[String(issue.path[0] ?? 'form')] ??= issue.message;
      setIssues(next);
      // The previous search's results no longer answer what is on the form: they go, so none is opened by mistake.
      setPayload(null);
      lastSubmit.current = { key: '', at: 0 };
      return;
    }
    setIssues({});
    // The same search submitted again within 300 ms (a double click) sends nothing more (SPEC §9 debounce);
    // a different search always goes.
    const now = Date.now();
    const key = JSON.stringify(parsed.data);
    if (key === lastSubmit.current.key && now - lastSubmit.current.at < SEARCH_DEBOUNCE_MS) return;
    lastSubmit.current = { key, at: now };
    setPayload(parsed.data);
  };

  const searching = search.isFetching;
  return (
    <section aria-labelledby="search-title" className="flex flex-col gap-4">
      <div>
        <MainHeading id="search-title" className="text-xl font-semibold">
          {t('title')}
        </MainHeading>
        <p className="text-sm text-slate-600">{t('subtitle')}</p>
      </div>
      <form
        noValidate
        onSubmit={(e) => void onSubmit(e)}
        onFocus={() => void loadSearchSchema()}
        onPointerEnter={() => void loadSearchSchema()}
        className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4"
      >
        <RadioCards
          label={t('methodLabel')}
          value={form.method}
          onValueChange={(method) => {
            setForm((f) => ({ ...f, method: method as SearchForm['method'] }));
            setIssues({});
          }}
          options={[
            { value: 'name-dob', title: t('methods.nameDob.title'), description: t('methods.nameDob.description') },
            { value: 'id-number', title: t('methods.idNumber.title'), description: t('methods.idNumber.description') },
            { value: 'fuzzy-name', title: t('methods.fuzzy.title'), description: t('methods.fuzzy.description') },
          ]}
        />
        {form.method === 'name-dob' ? (
          <div className="grid gap-3 sm:grid-cols-2">
            <FormField label={t('lastName')} required error={err('lastName')}>
              <Input value={form.lastName} onChange={set('lastName')} maxLength={100} autoComplete="off" />
            </FormField>
            <FormField label={t('dateOfBirth')} required error={err('dateOfBirth')}>
              <DateInput value={form.dateOfBirth} onChange={(dateOfBirth) => setForm((f) => ({ ...f, dateOfBirth }))} />
            </FormField>
          </div>
        ) : form.method === 'id-number' ? (
          <FormField label={t('ncNumber')} error={err('idNumber')}>
            <Input
              value={form.idNumber}
              onChange={set('idNumber')}
              maxLength={11}
              inputMode="numeric"
              placeholder={t('ncPlaceholder')}
              autoComplete="off"
            />
          </FormField>
        ) : (
          <div className="flex flex-col gap-3">
            <p className="text-sm text-slate-600">{t('fuzzyHint')}</p>
            <div className="grid gap-3 sm:grid-cols-3">
              <FormField label={t('firstName')} error={err('fullName')}>
                <Input value={form.firstName} onChange={set('firstName')} maxLength={100} autoComplete="off" />
              </FormField>
              <FormField label={t('lastName')}>
                <Input value={form.smartLastName} onChange={set('smartLastName')} maxLength={100} autoComplete="off" />
              </FormField>
              <FormField label={t('address')} error={err('address')}>
                <Input value={form.address} onChange={set('address')} maxLength={200} />
              </FormField>
              <FormField label={t('ageMin')} required error={err('ageRangeMin')}>
                <Input type="number" min={0} max={150} value={form.ageRangeMin} onChange={set('ageRangeMin')} />
              </FormField>
              <FormField label={t('ageMax')} required error={err('ageRangeMax')}>
                <Input type="number" min={0} max={150} value={form.ageRangeMax} onChange={set('ageRangeMax')} />
              </FormField>
            </div>
            <p className="flex items-start gap-2 rounded-md bg-blue-50 p-3 text-sm text-blue-900">
              <Info aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              {t('fuzzyInfo')}
            </p>
          </div>
        )}
        {issues.form ? (
          <p role="alert" className="text-sm text-danger-600">
            {t(issues.form)}
          </p>
        ) : null}
        <div>
          <Button type="submit" size="lg" disabled={searching}>
            {searching ? (
              <>
                <Spinner /> {t('searching')}
              </>
            ) : (
              t('submit')
            )}
          </Button>
        </div>
      </form>
      {search.isSuccess ? <SearchResults results={search.data} onSelect={onSelect} onIssueCode={onIssueCode} /> : null}
    </section>
  );
}
