// Dates as the record shows them (SPEC §2): day/month/year (en-GB) in every language.
import { format } from 'date-fns';

/** YYYY-MM-DD as dd/MM/yyyy, read as a calendar date (no time-zone shift); '-' when missing. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '-';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : iso;
}

/** An ISO timestamp as dd/MM/yyyy HH:mm in the browser's time zone. */
export const formatDateTime = (iso: string): string => format(new Date(iso), 'dd/MM/yyyy HH:mm');
