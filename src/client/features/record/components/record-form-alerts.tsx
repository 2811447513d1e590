// What the record's form says when the server does not simply save (SPEC §5; issue 23): the warnings a 409
// CONFIRMATION_REQUIRED names, with "Save anyway"; and, for an edit, that someone else changed the entry meanwhile
// (409 VERSION_CONFLICT, or 428 VERSION_REQUIRED without the row), with the fields that changed and a way to load
// the current version into the form. Each alert takes focus when it appears.
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../lib/use-translation';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import { Button } from '../../../components/ui/button';
import { needsOverrideReason, OverrideReasonField, overrideReasonReady, WarningText } from './medicine-check-warnings';

/** The two alerts' colours: a warning to confirm, or a conflict to resolve. */
const TONES = {
  warning: 'border-yellow-300 bg-yellow-50 text-yellow-950 focus-visible:ring-yellow-700',
  conflict: 'border-red-300 bg-red-50 text-red-950 focus-visible:ring-red-700',
} as const;

/**
 * The frame of both alerts: named by its title, focused when it appears and again whenever `shown` changes, then what
 * it says, then its action (pending while it runs) and Cancel.
 */
function FocusedAlert({
  id,
  tone,
  title,
  shown,
  action,
  onCancel,
  children,
}: {
  id: string;
  tone: keyof typeof TONES;
  title: string;
  shown: unknown;
  action: { label: string; onClick: () => void; pending: boolean; pendingText: string; disabled?: boolean };
  onCancel: () => void;
  children: React.ReactNode;
}): React.JSX.Element {
  const { t } = useTranslation('record');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [shown]);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="alert"
      aria-labelledby={id}
      className={`flex flex-col gap-2 rounded-md border p-3 text-sm outline-none focus-visible:ring-2 sm:col-span-2 ${TONES[tone]}`}
    >
      <p id={id} className="font-semibold">
        {title}
      </p>
      {children}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={action.onClick} disabled={action.disabled} pending={action.pending} pendingText={action.pendingText}>
          {action.label}
        </Button>
        <Button size="sm" variant="secondary" onClick={onCancel}>
          {t('form.cancel')}
        </Button>
      </div>
    </div>
  );
}

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
  const [reason, setReason] = useState('');
  const needsReason = needsOverrideReason(warnings);
  return (
    <FocusedAlert
      id="record-warnings-title"
      tone="warning"
      title={t('warnings.title')}
      shown={warnings}
      action={{
        label: t('warnings.confirm'),
        onClick: () => onConfirm(needsReason ? reason.trim() : undefined),
        disabled: needsReason && !overrideReasonReady(reason),
        pending: saving,
        pendingText: t('form.saving'),
      }}
      onCancel={onCancel}
    >
      <ul className="list-disc pl-5">
        {warnings.map((w, i) => (
          <li key={`${w.code}-${i}`}>
            <WarningText warning={w} />
          </li>
        ))}
      </ul>
      {needsReason ? <OverrideReasonField value={reason} onChange={setReason} /> : null}
    </FocusedAlert>
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
  return (
    <FocusedAlert
      id="record-conflict-title"
      tone="conflict"
      title={t('conflict.title')}
      shown={changed}
      action={{ label: t('conflict.load'), onClick: onLoad, pending: loading, pendingText: t('conflict.loading') }}
      onCancel={onCancel}
    >
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
    </FocusedAlert>
  );
}
