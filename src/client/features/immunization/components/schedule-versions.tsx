// The Admin area's immunization schedule (issue 25 item 1, decision 044): the versions loaded (newest is current; the
// shipped file when none was loaded), and loading a new version from a JSON file read in the browser. A refusal lists
// every problem the server found; the outcome takes keyboard focus so a screen reader reads it.
import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation';
import i18n from '../../../lib/i18n';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { Spinner } from '../../../components/ui/spinner';
import { asApiError } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/dates';
import { errorText, issueKey } from '../../../lib/error-text';
import { scheduleVersionsQueryOptions, useLoadSchedule } from '../api/schedule-versions';

type Outcome = { kind: 'loaded'; version: string } | { kind: 'refused'; title: string; problems: string[] };

export function ScheduleVersions(): React.JSX.Element {
  const { t } = useTranslation(['dashboard', 'common', 'validation']);
  const versions = useQuery(scheduleVersionsQueryOptions);
  const load = useLoadSchedule();
  const [file, setFile] = useState<File | null>(null);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (outcome) outcomeRef.current?.focus();
  }, [outcome]);

  const refuse = (title: string, problems: string[] = []): void => setOutcome({ kind: 'refused', title, problems });

  const submit = async (event: React.FormEvent): Promise<void> => {
    event.preventDefault();
    setOutcome(null);
    if (!file) return refuse(t('schedule.noFile'));
    let body: unknown;
    try {
      body = JSON.parse(await file.text());
    } catch {
      return refuse(t('schedule.notJson'));
    }
    load.mutate(body, {
      onSuccess: (row) => setOutcome({ kind: 'loaded', version: row.version }),
      onError: (error) => {
        const api = asApiError(error);
        if (api?.code === 'CONFLICT') return refuse(t('schedule.conflict', { version: String(api.details.version ?? '') }));
        // Each problem names where it is in the file (a JSON path such as doses.3.earliestAge) and what is wrong.
        const problems = (api?.issues ?? []).map(
          (issue) => `${issue.path ? `${issue.path}: ` : ''}${t(issueKey(issue.message, (k) => i18n.exists(k)))}`,
        );
        refuse(api?.code === 'VALIDATION_FAILED' ? t('schedule.invalid') : errorText(t, error, t('schedule.failed')), problems);
      },
    });
  };

  const rows = versions.data ?? [];
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('schedule.title')}</CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {versions.isPending ? <Spinner /> : null}
        {versions.isError ? <p role="alert">{errorText(t, versions.error, t('schedule.failed'))}</p> : null}
        <ul className="flex flex-col gap-2" aria-label={t('schedule.versions')}>
          {rows.map((v) => (
            <li key={`${v.id}-${v.version}`} className="rounded-md border border-slate-200 p-3 text-sm break-words">
              <p className="font-semibold">
                {v.version} {v.current ? <Badge tone="green">{t('schedule.current')}</Badge> : null}
              </p>
              <p>{v.title}</p>
              <p className="text-slate-600">
                {v.loadedAt ? t('schedule.loadedBy', { when: formatDateTime(v.loadedAt), who: v.loadedBy ?? '' }) : t('schedule.shipped')}
              </p>
            </li>
          ))}
        </ul>
        <form className="flex flex-col gap-3" aria-label={t('schedule.loadTitle')} onSubmit={(e) => void submit(e)}>
          <FormField label={t('schedule.file')} hint={t('schedule.fileHint')}>
            <Input
              type="file"
              accept="application/json,.json"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null);
                setOutcome(null);
              }}
            />
          </FormField>
          <Button type="submit" disabled={load.isPending} className="self-start">
            {load.isPending ? t('schedule.loading') : t('schedule.load')}
          </Button>
          {load.isPending ? (
            <p role="status" className="flex items-center gap-2 text-sm">
              <Spinner /> {t('schedule.sending')}
            </p>
          ) : null}
        </form>
        {outcome ? (
          <div
            ref={outcomeRef}
            tabIndex={-1}
            role={outcome.kind === 'refused' ? 'alert' : 'status'}
            className={
              outcome.kind === 'refused'
                ? 'rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 outline-none focus-visible:ring-2 focus-visible:ring-red-700'
                : 'rounded-md border border-green-300 bg-green-50 p-3 text-sm text-green-900 outline-none focus-visible:ring-2 focus-visible:ring-green-700'
            }
          >
            {outcome.kind === 'loaded' ? (
              <p className="font-semibold">{t('schedule.loaded', { version: outcome.version })}</p>
            ) : (
              <>
                <p className="font-semibold">{outcome.title}</p>
                {outcome.problems.length ? (
                  <ul className="mt-1 list-disc pl-5 break-words">
                    {outcome.problems.map((p, i) => (
                      <li key={i}>{p}</li>
                    ))}
                  </ul>
                ) : null}
              </>
            )}
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
