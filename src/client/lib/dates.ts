// The one owner of how dates read in the client (SPEC §2, §9): day/month/year (en-GB) in every language, calendar
// dates read as written (no time-zone shift), timestamps in the device's time zone. A dash for a missing value;
// anything unreadable is shown as it came. Written out by hand, not with a date library: the date field of the patient
// sign-in page uses this file, and the library came with it into that page's first script (issue 21 item 18).

/** A calendar date 'YYYY-MM-DD' (or a timestamp starting with one) as dd/MM/yyyy. */
export function formatDate(day: string | null | undefined): string {
  if (!day) return '-';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  return m ? `${m[3]}/${m[2]}/${m[1]}` : day;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The parts of a timestamp in the device's time zone, or null when it is no time. */
const partsOf = (iso: string): { y: string; mo: string; d: string; h: string; mi: string; s: string } | null => {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return null;
  return {
    y: pad(t.getFullYear(), 4),
    mo: pad(t.getMonth() + 1),
    d: pad(t.getDate()),
    h: pad(t.getHours()),
    mi: pad(t.getMinutes()),
    s: pad(t.getSeconds()),
  };
};

/** An ISO timestamp as dd/MM/yyyy HH:mm in the device's time zone. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '-';
  const p = partsOf(iso);
  return p ? `${p.d}/${p.mo}/${p.y} ${p.h}:${p.mi}` : iso;
}

/** An ISO timestamp as yyyy-MM-dd HH:mm:ss (SPEC §3: the audit log's Timestamp column). */
export function formatAuditTimestamp(iso: string | null | undefined): string {
  if (!iso) return '-';
  const p = partsOf(iso);
  return p ? `${p.y}-${p.mo}-${p.d} ${p.h}:${p.mi}:${p.s}` : iso;
}
