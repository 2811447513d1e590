import { format, parseISO } from 'date-fns';

/** A calendar date (YYYY-MM-DD) as dd/MM/yyyy (en-GB, SPEC §9); a dash when missing. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '-';
  try {
    return format(parseISO(value), 'dd/MM/yyyy');
  } catch {
    return value;
  }
}
