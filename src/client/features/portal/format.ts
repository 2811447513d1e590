// Dates as SPEC §9 shows them: en-GB day/month/year, whatever the interface language.
import { format, isValid, parseISO } from 'date-fns';

/** 'YYYY-MM-DD' -> 'dd/MM/yyyy'; anything unreadable is shown as it came. */
export function formatDay(day: string): string {
  const d = parseISO(day);
  return isValid(d) ? format(d, 'dd/MM/yyyy') : day;
}

/** An ISO timestamp -> 'dd/MM/yyyy HH:mm' in the device's time zone. */
export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return isValid(d) ? format(d, 'dd/MM/yyyy HH:mm') : iso;
}
