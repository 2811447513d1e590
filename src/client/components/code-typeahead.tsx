// A type-ahead over the catalogues (GET /api/codes, issue 22 item 3), as a WAI-ARIA 1.2 combobox with a listbox popup:
// typing searches (debounced), ArrowDown/ArrowUp move through the matches, Enter picks one, Escape closes the list
// and keeps the text, Tab leaves. Free text is always allowed: the value is the text plus the picked entry, and
// typing after a pick drops the entry, so what is stored is either coded (the code shown beside the field) or marked
// uncoded.
import { forwardRef, useEffect, useId, useState, type InputHTMLAttributes, type KeyboardEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Controller, type Control, type FieldValues, type Path } from 'react-hook-form';
import { useTranslation } from '../lib/use-translation';
import type { CodeEntry, CodeKind, CodedValue, CodesAnswer } from '../../contracts/codes';
import { cn } from '../lib/cn';
import { toQueryString, urlKey } from '../lib/query-keys';
import { Input } from './ui/input';

/** What the field holds: the text as shown, and the catalogue entry it was picked from (null: free text, uncoded). */
export interface CodedText {
  text: string;
  coded: CodedValue | null;
}

export const EMPTY_CODED_TEXT: CodedText = { text: '', coded: null };

/** How long typing must pause before the catalogue is asked. */
export const TYPEAHEAD_DEBOUNCE_MS = 150;
/** Fewer characters than this ask nothing. */
const MIN_QUERY = 2;

/** The key of one look-up's answer (reference data: cached for the session). */
export const codesKey = (kind: CodeKind, q: string) => urlKey(`/api/codes${toQueryString({ kind, q })}`);

function useDebounced(value: string, ms: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

export interface CodeTypeaheadProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'defaultValue' | 'type'> {
  kind: CodeKind;
  value: CodedText;
  onChange: (value: CodedText) => void;
  /** Called with the whole entry when one is picked (a lab result form pre-fills unit and range from it). */
  onPick?: (entry: CodeEntry) => void;
  /** The accessible name of the list of matches (usually the field's label). */
  listLabel?: string;
}

export const CodeTypeahead = forwardRef<HTMLInputElement, CodeTypeaheadProps>(function CodeTypeahead(
  { kind, value, onChange, onPick, listLabel, className, onKeyDown, onBlur, 'aria-describedby': describedBy, ...props },
  ref,
) {
  const { t } = useTranslation('common');
  const ids = useId();
  const listId = `${ids}-list`;
  const markerId = `${ids}-marker`;
  const optionId = (i: number): string => `${ids}-option-${i}`;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const q = useDebounced(value.text.trim(), TYPEAHEAD_DEBOUNCE_MS);
  const asking = open && q.length >= MIN_QUERY;
  const lookup = useQuery({
    queryKey: codesKey(kind, q),
    enabled: asking,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const answer = lookup.data as CodesAnswer | undefined;
  const results = asking && answer?.kind === kind ? answer.results : [];
  const expanded = open && results.length > 0;

  const pick = (entry: CodeEntry): void => {
    onChange({ text: entry.display, coded: { code: entry.code, codeSystem: entry.codeSystem, display: entry.display } });
    onPick?.(entry);
    setOpen(false);
    setActive(-1);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>): void => {
    // A caller's own onKeyDown may take a key; a dialog's Escape handler (which ran first) does not count.
    const prevented = event.defaultPrevented;
    onKeyDown?.(event);
    if (!prevented && event.defaultPrevented) return;
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      if (!open) setOpen(true);
      else if (results.length > 0) setActive((i) => Math.min(results.length - 1, i + 1));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      if (results.length > 0) setActive((i) => Math.max(0, i - 1));
    } else if (event.key === 'Enter') {
      const entry = expanded && active >= 0 ? results[active] : undefined;
      if (entry) {
        event.preventDefault();
        pick(entry);
      }
    } else if (event.key === 'Escape') {
      // An open list takes the Escape (the text stays, a dialog around the field stays open: ui/dialog.tsx); with
      // no list showing, Escape goes on to the dialog.
      if (expanded) {
        event.preventDefault();
        event.stopPropagation();
      }
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Tab') {
      setOpen(false);
    }
  };

  let status = '';
  if (asking && lookup.isError) status = t('codes.lookupFailed');
  else if (asking && lookup.isFetching && results.length === 0) status = t('codes.searching');
  else if (asking && !lookup.isFetching && answer && results.length === 0) status = t('codes.noMatches');

  const marker = value.coded ? t('codes.codeLabel', { code: value.coded.code }) : value.text.trim() ? t('codes.uncoded') : '';

  return (
    <div className="relative">
      <Input
        ref={ref}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-describedby={[describedBy, marker ? markerId : null].filter(Boolean).join(' ') || undefined}
        autoComplete="off"
        spellCheck={false}
        className={cn('pr-28', className)}
        {...props}
        value={value.text}
        onChange={(e) => {
          onChange({ text: e.target.value, coded: null });
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={handleKeyDown}
        onBlur={(e) => {
          setOpen(false);
          onBlur?.(e);
        }}
      />
      {marker ? (
        <span
          id={markerId}
          className={cn(
            'pointer-events-none absolute right-2 top-2 max-w-[6.5rem] truncate rounded px-1.5 py-0.5 text-xs',
            value.coded ? 'bg-blue-100 font-mono text-blue-800' : 'bg-slate-100 text-slate-600',
          )}
        >
          {marker}
        </span>
      ) : null}
      {/* In the flow, not floating: inside a scrolling dialog on a phone it pushes the fields below instead of being cut off. */}
      <ul
        id={listId}
        role="listbox"
        aria-label={listLabel}
        hidden={!expanded}
        className="mt-1 max-h-64 w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg"
      >
        {results.map((entry, i) => (
          <li
            key={`${entry.codeSystem}|${entry.code}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // The input keeps the focus: a click picks without a blur closing the list first.
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => pick(entry)}
            onMouseMove={() => setActive(i)}
            className={cn('flex cursor-pointer items-baseline justify-between gap-3 px-3 py-2 text-sm', i === active && 'bg-blue-50')}
          >
            <span className="min-w-0 break-words">{entry.display}</span>
            {/* slate-600: slate-500 on the active option's blue-50 is 4.37:1, under WCAG AA's 4.5:1 (axe). */}
            <span className="shrink-0 font-mono text-xs text-slate-600">{entry.code}</span>
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {status}
      </p>
      {status && open ? <p className="mt-1 text-xs text-slate-500">{status}</p> : null}
    </div>
  );
});

export interface FormCodeTypeaheadProps<T extends FieldValues> extends Omit<CodeTypeaheadProps, 'value' | 'onChange' | 'name'> {
  control: Control<T>;
  /** A field whose value is a CodedText. */
  name: Path<T>;
}

/** <CodeTypeahead> bound to a react-hook-form field (like FormDateInput): FormField's id and aria props reach the input. */
export function FormCodeTypeahead<T extends FieldValues>({ control, name, ...props }: FormCodeTypeaheadProps<T>): React.JSX.Element {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <CodeTypeahead
          {...props}
          ref={field.ref}
          name={field.name}
          value={isCodedText(field.value) ? field.value : EMPTY_CODED_TEXT}
          onChange={field.onChange}
          onBlur={field.onBlur}
        />
      )}
    />
  );
}

function isCodedText(value: unknown): value is CodedText {
  return typeof value === 'object' && value !== null && typeof (value as CodedText).text === 'string';
}
