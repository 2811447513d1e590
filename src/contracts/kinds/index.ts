// The record kinds, each listed once (issue 22 item 1): everything generic about the record (routes, lists, the
// summary, the portal, FHIR, the client's sections) is derived from this list and the kinds' own definitions.
// The order is the record's: the five SPEC lists, vital signs, then laboratory results.
import type { z } from 'zod';
import { allergies } from './allergies';
import { appointments } from './appointments';
import { diagnoses } from './diagnoses';
import type { Now } from './fields';
import { labResults } from './lab-results';
import { medications } from './medications';
import { vaccines } from './vaccines';
import { vitals } from './vitals';

export const KIND_CONTRACTS = {
  diagnoses,
  appointments,
  allergies,
  medications,
  vaccines,
  vitals,
  'lab-results': labResults,
} as const;

type Contracts = typeof KIND_CONTRACTS;
export type RecordKind = keyof Contracts;
export const RECORD_KINDS = Object.keys(KIND_CONTRACTS) as RecordKind[];

/** A row of each kind as the API answers it. */
export type RecordRows = { [K in RecordKind]: z.infer<Contracts[K]['row']> };
/** The add input of each kind as a caller sends it, and as the schema gives it back. */
export type RecordInputs = { [K in RecordKind]: z.input<ReturnType<Contracts[K]['input']>> };
export type NewRecordItems = { [K in RecordKind]: z.output<ReturnType<Contracts[K]['input']>> };
export type RecordLists = { [K in RecordKind]: RecordRows[K][] };

/** The kinds the patient portal shows, in the record's order. */
export type PortalKind = { [K in RecordKind]: Contracts[K]['portal'] extends null ? never : K }[RecordKind];
export const PORTAL_KINDS = RECORD_KINDS.filter((k) => KIND_CONTRACTS[k].portal !== null) as PortalKind[];
export type PortalRows = { [K in PortalKind]: z.infer<NonNullable<Contracts[K]['portal']>['row']>[] };

/** The kinds whose entries can carry a code (each has a catalogue named after it, catalogues/<kind>.tsv). */
export type CodedKind = { [K in RecordKind]: Contracts[K]['coded'] extends null ? never : K }[RecordKind];
export const CODED_KINDS = RECORD_KINDS.filter((k) => KIND_CONTRACTS[k].coded !== null) as CodedKind[];

/** The contract of one kind, widened: for code that handles every kind alike. */
export interface AnyKindContract {
  kind: RecordKind;
  resourceType: string;
  notFound: string;
  input: (now: Now) => z.ZodType;
  row: z.ZodObject;
  order: readonly string[];
  coded: { field: string; systems: readonly string[] } | null;
  portal: { row: z.ZodObject; from: (row: never) => unknown } | null;
}
export const kindContract = (kind: RecordKind): AnyKindContract => KIND_CONTRACTS[kind] as unknown as AnyKindContract;

/** The audit resource type of each kind's rows. */
export type RecordResourceType = Contracts[RecordKind]['resourceType'];
export const RECORD_RESOURCE_TYPES = RECORD_KINDS.map((k) => KIND_CONTRACTS[k].resourceType) as RecordResourceType[];

/** The input schema of every kind, judged against `now` (the server passes its clock; the client the real one). */
export const recordInputs = (now: Now = () => new Date()) =>
  Object.fromEntries(RECORD_KINDS.map((k) => [k, KIND_CONTRACTS[k].input(now)])) as {
    [K in RecordKind]: ReturnType<Contracts[K]['input']>;
  };

export type { DiagnosisRow } from './diagnoses';
export type { AppointmentRow } from './appointments';
export type { AllergyRow } from './allergies';
export type { MedicationRow } from './medications';
export type { VaccineRow } from './vaccines';
export type { VitalsRow } from './vitals';
export type { LabResultRow } from './lab-results';
