// Timestamps as the audit screens show them: dd/MM/yyyy HH:mm in the device's time zone.
import { format, isValid } from 'date-fns';

export function formatDateTime(iso: string): string {
  const d = new Date(iso);
  return isValid(d) ? format(d, 'dd/MM/yyyy HH:mm') : iso;
}
