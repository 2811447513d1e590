// The old and new values of an audit row as every reader shows them (the audit log and FHIR AuditEvents, the
// DATA_MODIFICATION report, the privacy review's grant activity): a row with a payload (decision 042) shows its opened
// payload, a shredded one `{ shredded: true }`, one that cannot be opened `{ unavailable: ... }`; a row without one
// shows the values in its chained row. Either way through presentPayload (the one presenter of clinical rows), with
// `sealed` read in the same query (sealedFlagSql). Reading never fails on a payload.
import { openStoredPayload, payloadPlaceholder } from '../../audit/audit-payload';
import { presentPayload } from '../records/present';

/** The columns a reader selects beside old_values and new_values (auditValueColumns in audit-values.repository.ts). */
export interface StoredAuditValues {
  resourceType: string;
  oldValues: unknown;
  newValues: unknown;
  payloadHash: string | null;
  /** Whether audit_payloads has a row for it. */
  payloadRow: boolean;
  payloadSalt: string | null;
  payloadCiphertext: string | null;
  /** Whether the clinical row it names is sealed now. */
  sealed: boolean;
}

export interface PresentedAuditValues {
  oldValues: unknown;
  newValues: unknown;
  /** For a row with a payload: the small event details its chained row carries (e.g. the changed field names). */
  eventValues?: { oldValues: unknown; newValues: unknown };
}

export function presentAuditValues(row: StoredAuditValues): PresentedAuditValues {
  const present = (values: unknown): unknown => presentPayload(row.resourceType, values, row.sealed === true);
  if (row.payloadHash === null) return { oldValues: present(row.oldValues), newValues: present(row.newValues) };
  const opened = openStoredPayload(row.payloadRow ? { salt: row.payloadSalt, ciphertext: row.payloadCiphertext } : null);
  const eventValues = { oldValues: row.oldValues, newValues: row.newValues };
  if (opened.state !== 'open') {
    const placeholder = payloadPlaceholder(opened);
    return { oldValues: placeholder, newValues: placeholder, eventValues };
  }
  return { oldValues: present(opened.values.oldValues), newValues: present(opened.values.newValues), eventValues };
}

/** The stored columns a reader never sees (resourceType stays). */
type StoredOnly = Exclude<keyof StoredAuditValues, 'resourceType'>;

/** `row` with its stored value columns replaced by what a reader sees. */
export function withPresentedValues<T extends StoredAuditValues>(row: T): Omit<T, StoredOnly> & PresentedAuditValues {
  const {
    oldValues: _o,
    newValues: _n,
    payloadHash: _h,
    payloadRow: _r,
    payloadSalt: _s,
    payloadCiphertext: _c,
    sealed: _x,
    ...rest
  } = row;
  return { ...rest, ...presentAuditValues(row) };
}
