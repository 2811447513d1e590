// What the server adds to a record kind's contract (issue 22 item 1): its table, what it stores besides the input,
// extra checks, the warnings a clinician must confirm, and how it is a FHIR resource. The records, FHIR and portal
// code handle every kind through this shape; a kind's own rules live in its file, never as `if (kind === ...)`.
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FieldIssue } from '../../../../contracts/errors';
import type { KIND_CONTRACTS, NewRecordItems, RecordKind, RecordRows } from '../../../../contracts/kinds';
import type { RecordWarning } from '../../../../contracts/record-warnings';
import type { FhirResourceType } from '../../../../contracts/fhir-scopes';
import type { PatientScope } from '../../access/patient-scope';
import type { FhirResource } from '../../../fhir/resources';

/**
 * A record table: an id, the patient it belongs to, the version columns (versioned-columns.ts) and the kind's columns
 * (named as the row's fields).
 */
export type KindTable = PgTable & {
  id: PgColumn;
  patientId: PgColumn;
  uuid: PgColumn;
  version: PgColumn;
  enteredInErrorAt: PgColumn;
  sealed: PgColumn;
  changeXid: PgColumn;
};

/** Who stores an item and when (the server's clock). */
export interface StoredBy {
  now: Date;
  /** The signed-in staff member's name. */
  name: string;
}

/** A catalogue entry an input's code named (the records service looked it up). */
export interface CodeEntry {
  code: string;
  codeSystem: string;
  display: string;
  /** Kind-specific facts of the catalogue (a lab test's value type, unit, range). */
  extra: Record<string, unknown>;
}

type Json = Record<string, unknown>;

/** The FHIR side of a kind. */
export interface KindFhir<Row> {
  type: FhirResourceType;
  /** The resources one row stands for, each with its id (a reading of vital signs is up to three Observations). */
  resources(row: Row): FhirResource[];
  /** The row id a resource id names, or null when the id is not one of this kind's. */
  rowId(id: string): number | null;
  /**
   * Searches beyond `patient`: the parameters, and which resources to keep for the given values; null when these
   * values ask for nothing of this kind (another category). Throws unsupported() for a value it cannot answer.
   */
  search: {
    params: readonly { name: string; type: string; documentation: string }[];
    select(values: Map<string, string>): ((r: FhirResource) => boolean) | null;
  } | null;
  /** Creating an item from a resource (POST <type>); null when the kind cannot be created through FHIR. */
  create: {
    /** Where the resource names its patient. */
    patientField: 'subject' | 'patient';
    /** Whether this kind takes the resource (one FHIR type may be several kinds). */
    accepts(resource: Json): boolean;
    /** The record input the resource stands for, before the kind's schema checks it. */
    input(resource: Json, by: { name: string; facility: string | undefined }): Json;
    /** The FHIRPath each input field comes from: where a validation issue points. */
    expressions: Record<string, string>;
  } | null;
  /** The International Patient Summary section of the kind's resources; null when they are in no section. */
  ips: { code: string; title: string } | null;
  /** The StructureDefinition the resources claim, for the CapabilityStatement. */
  profile?: string;
}

export interface ServerKind<K extends RecordKind> {
  contract: (typeof KIND_CONTRACTS)[K];
  table: KindTable;
  /**
   * What is stored besides the parsed input: fields the server decides (who recorded it and when, a computed
   * flag). `existing` is the stored row when an item is edited.
   */
  stored?(input: NewRecordItems[K], by: StoredBy, existing: RecordRows[K] | null): Record<string, unknown>;
  /** Checks that need the catalogue entry of the input's code: field issues (a 400), none when fine. */
  validate?(input: NewRecordItems[K], code: CodeEntry | null): FieldIssue[];
  /** Warnings a clinician must confirm before the item is stored (the warnings-then-confirm protocol). */
  check?(scope: PatientScope, input: NewRecordItems[K], editing: number | null): Promise<RecordWarning[]>;
  /** Keeps data derived from the patient's rows of this kind current, in the transaction of every add, edit and entered in error. */
  afterChange?(scope: PatientScope): Promise<void>;
  fhir: KindFhir<RecordRows[K]>;
}

/** Declares a kind's server side; the identity, keeping the kind's own types. */
export function defineServerKind<K extends RecordKind>(kind: ServerKind<K>): ServerKind<K> {
  return kind;
}
