// Row shapes of the bulk load: patients in column order, and PostgreSQL COPY text encoding.
import type { Cell } from '../generator/clinical';
import type { SyntheticPatient } from '../generator/people';

export const PATIENT_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'date_of_birth',
  'sex',
  'id_number',
  'contact_number',
  'address',
  'next_of_kin',
  'next_of_kin_contact',
] as const;

export function patientRow(p: SyntheticPatient): Cell[] {
  return [p.id, p.firstName, p.lastName, p.dateOfBirth, p.sex, p.idNumber, p.contactNumber, p.address, p.nextOfKin, p.nextOfKinContact];
}

const NEEDS_ESCAPE = /[\\\t\n\r]/;

/** One line of COPY ... FROM STDIN (text format): tab-separated, \N for null, backslash escapes. */
export function copyLine(cells: readonly Cell[]): string {
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (i > 0) line += '\t';
    if (v === null || v === undefined) line += '\\N';
    else if (typeof v === 'number') line += String(v);
    else line += NEEDS_ESCAPE.test(v) ? v.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : v;
  }
  return `${line}\n`;
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
