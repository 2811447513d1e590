// Every table.column of the database that refers to a patient, and what joining two records and undoing the join do
// with it (decision 048). Join and undo are driven from this one list; the catalogue test
// (patient-references.test.ts) reads the database's own catalogue and fails when a column that refers to a patient is
// missing here, or when this list names a column that no longer exists.
import { CLINICAL_TABLES } from './join-patients.repository';

/**
 * - moved: each row of the merged-away patient is re-pointed to the survivor (ledger: 'moved', its primary key).
 * - keyed: as moved, but the primary key includes the patient, so the survivor may already hold the like (the same
 *   other key columns): then one of the two rows is removed with its whole row (ledger: 'removed'), the other moved.
 *   `pick: 'portal'`: the reviewer's keep.portal says whose row stays; otherwise the survivor's.
 * - derived: computed from other rows; the merged-away patient's rows are removed and both are recomputed.
 * - open-pairs: duplicate_pairs; open pairs of the merged-away patient are removed (ledger) and the survivor matched
 *   again; decided pairs (this join's own included) stay as history.
 * - stays: belongs to the record itself (kept with the inactive record).
 * - never-rewritten: a log; it keeps the old id (the audit chain is never rewritten).
 * - not-a-patient: a column whose name says patient but which holds no patient reference (a count, a checkpoint).
 */
export type ReferenceTreatment = 'moved' | 'keyed' | 'derived' | 'open-pairs' | 'stays' | 'never-rewritten' | 'not-a-patient';

export interface PatientReference {
  table: string;
  column: string;
  treatment: ReferenceTreatment;
  /** The row's primary key columns (the ledger's row_key), for moved and keyed rows. */
  key?: readonly string[];
  /** keyed: whose row stays when both have one. */
  pick?: 'portal';
}

export const PATIENT_REFERENCES: readonly PatientReference[] = [
  // The clinical lists, one table per record kind (modules/records/kinds): every row moves with its history.
  ...CLINICAL_TABLES.map((table): PatientReference => ({ table, column: 'patient_id', treatment: 'moved', key: ['id'] })),
  { table: 'record_versions', column: 'patient_id', treatment: 'moved', key: ['kind', 'item_id', 'version'] },
  { table: 'medicine_check_overrides', column: 'patient_id', treatment: 'moved', key: ['id'] },
  { table: 'access_grants', column: 'patient_id', treatment: 'moved', key: ['id'] },
  // Offline clinic mode (decision 061): a patient registered offline and a review task follow the record.
  { table: 'offline_registrations', column: 'patient_id', treatment: 'moved', key: ['user_id', 'client_id'] },
  { table: 'offline_reviews', column: 'patient_id', treatment: 'moved', key: ['id'] },
  { table: 'webauthn_credentials', column: 'patient_id', treatment: 'moved', key: ['id'] },
  { table: 'webauthn_challenges', column: 'patient_id', treatment: 'moved', key: ['challenge'] },
  { table: 'patient_portal_credentials', column: 'patient_id', treatment: 'keyed', key: ['patient_id'], pick: 'portal' },
  { table: 'search_volume', column: 'patient_id', treatment: 'keyed', key: ['user_id', 'patient_id'] },
  { table: 'immunization_due', column: 'patient_id', treatment: 'derived' },
  { table: 'duplicate_pairs', column: 'patient_a', treatment: 'open-pairs' },
  { table: 'duplicate_pairs', column: 'patient_b', treatment: 'open-pairs' },
  // Kept by a trigger from the record's own names: it stays with the (inactive) record.
  { table: 'patient_name_pairs', column: 'patient_id', treatment: 'stays' },
  { table: 'patients', column: 'replaced_by', treatment: 'stays' },
  { table: 'patient_joins', column: 'survivor_id', treatment: 'stays' },
  { table: 'patient_joins', column: 'merged_id', treatment: 'stays' },
  { table: 'audit_logs', column: 'patient_id', treatment: 'never-rewritten' },
  // The ledger of offline opens and discards (decision 061): the id the device named.
  { table: 'offline_events', column: 'patient_id', treatment: 'never-rewritten' },
  { table: 'duplicate_scans', column: 'last_patient_id', treatment: 'not-a-patient' },
  { table: 'duplicate_scans', column: 'max_patient_id', treatment: 'not-a-patient' },
  { table: 'name_words', column: 'patients', treatment: 'not-a-patient' },
];

export const referencesTreated = (...treatments: ReferenceTreatment[]): PatientReference[] =>
  PATIENT_REFERENCES.filter((r) => treatments.includes(r.treatment));
