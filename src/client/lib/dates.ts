// The one owner of how dates read in the client (SPEC §2, §9): day/month/year (en-GB) in every language, calendar
// dates read as written (no time-zone shift), timestamps in the device's time zone. A dash for a missing value;
// anything unreadable is shown as it came.
import { format, isValid } from 'date-fns';

/** A calendar date 'YYYY-MM-DD' (or a timestamp starting with one) as dd/MM/yyyy. */
export function formatDate(day: string | null | undefined): string {
  if (!day) return '-';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

const timestamp = (iso: string | null | undefined, pattern: string): string => {
  if (!iso) return '-';
  const d = new Date(iso);
  return isValid(d) ? format(d, pattern) : iso;
};

/** An ISO timestamp as dd/MM/yyyy HH:mm in the device's time zone. */
export const formatDateTime = (iso: string | null | undefined): string => timestamp(iso, 'dd/MM/yyyy HH:mm');

/** An ISO timestamp as yyyy-MM-dd HH:mm:ss (SPEC §3: the audit log's Timestamp column). */
export const formatAuditTimestamp = (iso: string | null | undefined): string => timestamp(iso, 'yyyy-MM-dd HH:mm:ss');
