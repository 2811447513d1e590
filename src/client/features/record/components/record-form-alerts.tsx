// What the record's form says when the server does not simply save (SPEC §5; issue 23): the warnings a 409
// CONFIRMATION_REQUIRED names, with "Save anyway"; and, for an edit, that someone else changed the entry meanwhile
// (409 VERSION_CONFLICT, or 428 VERSION_REQUIRED without the row), with the fields that changed and a way to load
// the current version into the form. Each alert takes focus when it appears.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import { Button } from '../../../components/ui/button';
import { needsOverrideReason, OverrideReasonField, overrideReasonReady, WarningText } from './medicine-check-warnings';

/**
 * The server's warnings, translated (medicine-check-warnings.tsx WarningText: tier, substances, knowledge version), with
 * the override reason a contraindicated one needs; takes focus.
 */
export function WarningsAlert({
  warnings,
  saving,
  onConfirm,
  onCancel,
}: {
  warnings: RecordWarning[];
  saving: boolean;
  /** With the override reason when a warning needs one (a contraindicated medicine check). */
  onConfirm: (overrideReason?: string) => void;
  onCancel: () => void;
}): React.JSX.Element {
  const { t } = useTranslation('record');
  const ref = useRef<HTMLDivElement>(null);
  const [reason, setReason] = useState('');
  const needsReason = needsOverrideReason(warnings);
  useEffect(() => ref.current?.focus(), [warnings]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby="record-warnings-title"
      className="flex flex-col gap-2 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-950 outline-none focus-visible:ring-2 focus-visible:ring-yellow-700 sm:col-span-2"
    >
      <p id="record-warnings-title" className="font-semibold">
        {t('warnings.title')}
      </p>
      <ul className="list-disc pl-5">
        {warnings.map((w, i) => (
          <li key={`${w.code}-${i}`}>
            <WarningText warning={w} />
          </li>
        ))}
      </ul>
      {needsReason ? <OverrideReasonField value={reason} onChange={setReason} /> : null}
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          onClick={() => onConfirm(needsReason ? reason.trim() : undefined)}
          disabled={needsReason && !overrideReasonReady(reason)}
          pending={saving}
          pendingText={t('form.saving')}
        >
          {t('warnings.confirm')}
        </Button>
        <Button size="sm" variant="secondary" onClick={onCancel}>
          {t('form.cancel')}
        </Button>
      </div>
    </div>
  );
}

/** One changed field: its translated label and its value as stored now (null: blank). */
export interface ChangedField {
  label: string;
  value: string | null;
}

/**
 * Someone else changed the entry since the form was filled from it. `changed` lists the fields (empty when the
 * server could not say); "Load the current version" replaces what is typed in the form, and the alert says so.
 */
export function ConflictAlert({
  changed,
  loading,
  onLoad,
  onCancel,
}: {
  changed: ChangedField[];
  loading: boolean;
  onLoad: () => void;
  onCancel: () => void;
}): React.JSX.Element {
  const { t } = useTranslation('record');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [changed]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby="record-conflict-title"
      className="flex flex-col gap-2 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-950 outline-none focus-visible:ring-2 focus-visible:ring-red-700 sm:col-span-2"
    >
      <p id="record-conflict-title" className="font-semibold">
        {t('conflict.title')}
      </p>
      {changed.length > 0 ? (
        <>
          <p>{t('conflict.changed')}</p>
          <dl className="flex flex-col gap-1">
            {changed.map((c) => (
              <div key={c.label} className="flex flex-wrap gap-x-2">
                <dt className="font-medium">{c.label}:</dt>
                <dd className="break-words">{c.value ?? t('conflict.blank')}</dd>
              </div>
            ))}
          </dl>
        </>
      ) : null}
      <p>{t('conflict.explain')}</p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={onLoad} pending={loading} pendingText={t('conflict.loading')}>
          {t('conflict.load')}
        </Button>
        <Button size="sm" variant="secondary" onClick={onCancel}>
          {t('form.cancel')}
        </Button>
      </div>
    </div>
  );
}
