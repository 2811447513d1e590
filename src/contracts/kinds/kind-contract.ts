// What every record kind declares once, for the client and the server alike (issue 22 item 1): its input and row
// contracts, its order, its audit resource type, its codes and what the patient portal shows of it. The server adds
// its table, FHIR mapping and checks (src/server/modules/records/kinds/), the client its form and list rendering
// (src/client/features/record/kinds/); the registry (./index.ts) lists the kinds once.
import type { z } from 'zod';
import type { Now } from './fields';

export interface KindContract<
  K extends string = string,
  RT extends string = string,
  Row extends z.ZodObject = z.ZodObject,
  Input extends z.ZodType = z.ZodType,
  Portal extends PortalView<Row> | null = PortalView<Row> | null,
  Coded extends CodedSpec<Row> | null = CodedSpec<Row> | null,
> {
  kind: K;
  /** The audit resource type of the kind's rows (SPEC §9 and DESIGN.md). */
  resourceType: RT;
  /** The English message of RECORD_ENTRY_NOT_FOUND for the kind (the client translates the code and `details.kind`). */
  notFound: string;
  /** The add (and edit) input, judged against `now`. */
  input: (now: Now) => Input;
  /** A row as the API answers it. */
  row: Row;
  /** The sort keys of the list, each compared descending, the id last (SPEC §2: newest first). */
  order: readonly (keyof z.infer<Row> & string)[];
  /**
   * The text field a code stands for, and the code systems its codes may come from (the first is the kind's own); the
   * codes are those of the kind's catalogue, catalogues/<kind>.tsv. Null for a kind without codes.
   */
  coded: Coded;
  /** What the patient portal shows of a row (SPEC §3); null when the portal does not show the kind. */
  portal: Portal;
  /** What the kind adds to the Medical Dashboard (SPEC §2, §9): counters, critical alerts, panel parts. */
  dashboard?: KindDashboard<z.infer<Row>>;
}

/** A critical alert: an i18n key under record:alerts, with the values its text names. */
export interface DashboardAlert {
  key: string;
  params?: Record<string, string | number>;
}

/**
 * A kind's share of the Medical Dashboard. Counters and panels are placed by `position` (SPEC §9's order); parts of
 * one panel (the safety panel holds allergies and medications) are shown together under the panel's title.
 */
export interface KindDashboard<Row> {
  /** A counter: its label under record:dashboard.counters.<key> (and .<key>Hint when `hint`). */
  counters?: readonly { key: string; position: number; hint?: boolean; count: (rows: readonly Row[], today: string) => number }[];
  /** Critical alerts from the kind's rows, shown above everything else. */
  alerts?: (rows: readonly Row[]) => DashboardAlert[];
  /**
   * Panel parts: the panel (record:dashboard.<panel> is its title, record:dashboard.<empty> its text when no part has
   * rows), an optional heading of the part (record:dashboard.<heading>), and the rows the part lists.
   */
  panels?: readonly {
    panel: string;
    empty: string;
    position: number;
    heading?: string;
    rows: (rows: readonly Row[], today: string) => Row[];
  }[];
}

/** The text field a code stands for, and the code systems its codes may come from (the first is the kind's own). */
export interface CodedSpec<Row extends z.ZodObject> {
  field: keyof z.infer<Row> & string;
  systems: readonly string[];
}

/** What the portal shows of a row: its schema, and how a row becomes it. */
export interface PortalView<Row extends z.ZodObject, P extends z.ZodObject = z.ZodObject> {
  row: P;
  from: (row: z.infer<Row>) => z.infer<P>;
}

/** Declares a kind; the identity, so each definition keeps its own precise types. */
export function defineKind<
  K extends string,
  RT extends string,
  Row extends z.ZodObject,
  Input extends z.ZodType,
  Portal extends PortalView<Row> | null,
  Coded extends CodedSpec<Row> | null,
>(contract: KindContract<K, RT, Row, Input, Portal, Coded>): KindContract<K, RT, Row, Input, Portal, Coded> {
  return contract;
}
