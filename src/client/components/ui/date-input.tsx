// A calendar date typed as day/month/year in every language (issue 21 item 19): the browser's own date field
// follows the browser's locale (mm/dd/yyyy in an English Chromium), not the language the user picked. The form
// gets ISO 'YYYY-MM-DD' for a readable date (ISO typed or pasted is accepted as well), and the text as typed
// otherwise, so the form's schema says what is wrong in the user's language.
import { forwardRef, useEffect, useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from '../../lib/use-translation';
import { formatDate } from '../../lib/dates';
import { Input } from './input';

/** 'd/m/yyyy' (also with '.' or '-') or 'yyyy-mm-dd' as 'yyyy-mm-dd'; null when it is neither. */
export function isoFromTyped(text: string): string | null {
  const typed = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(typed)) return typed;
  const m = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(typed);
  return m ? `${m[3]}-${m[2]!.padStart(2, '0')}-${m[1]!.padStart(2, '0')}` : null;
}

const shown = (value: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value) : value);

export interface DateInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  /** ISO 'YYYY-MM-DD', '' or the unreadable text the user typed. */
  value: string;
  onChange: (value: string) => void;
}

export const DateInput = forwardRef<HTMLInputElement, DateInputProps>(function DateInput({ value, onChange, ...props }, ref) {
  const { t } = useTranslation('common');
  const [text, setText] = useState(() => shown(value));
  // A value set from outside (a reset, a prefilled form) replaces the text; the user's own typing does not.
  useEffect(() => {
    setText((current) => ((isoFromTyped(current) ?? current.trim()) === value ? current : shown(value)));
  }, [value]);
  return (
    <Input
      ref={ref}
      type="text"
      inputMode="numeric"
      placeholder={t('datePlaceholder')}
      maxLength={10}
      {...props}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(isoFromTyped(e.target.value) ?? e.target.value.trim());
      }}
    />
  );
});
