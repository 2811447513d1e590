// What the client knows of one record kind (issue 22 item 1), declared once in the kind's own file beside this one:
// the add form's fields, how an entry reads in the record's list, what the patient portal shows of it, and what it
// adds to the Medical Dashboard. The generic screens (add dialog, list, sidebar, dashboard, portal) read only this.
import type { ReactNode } from 'react';
import type { TFunction } from '../../../lib/translator';
import type { PortalKind, PortalRows, RecordKind, RecordRows } from '../../../../contracts/kinds';
import type { DashboardAlert } from '../../../../contracts/kinds/kind-contract';
import type { BadgeTone } from '../../../components/ui/badge';
import { statusTone, type ToneTable } from '../../../components/ui/status-tone';
import { formatDate } from '../../../lib/dates';

export type FieldControl = 'text' | 'textarea' | 'date' | 'time' | 'select' | 'number' | 'coded';

export interface FieldSpec {
  name: string;
  control: FieldControl;
  required?: boolean;
  /** The label's key under record:fields (default: the field's name). */
  label?: string;
  /** For selects: the values (the first is the default), translated under record:<labels>.<value>. */
  options?: readonly string[];
  labels?: 'status' | 'severity';
  /** Shows record:placeholders.<label or name>. */
  placeholder?: boolean;
  step?: string;
  /** Two fields side by side on wide screens. */
  half?: boolean;
}

/** The add form's values: text, as the inputs hold them (the hidden code and code system too). */
export type FormValues = Record<string, string>;

/** A catalogue entry as the type-ahead hands it over (GET /api/codes): the code, and what its catalogue adds. */
export interface PickedCode {
  code: string;
  codeSystem: string;
  display: string;
  /** The name clinics use (lab tests: "Potassium" for LOINC's long name). */
  shortName?: string | undefined;
  unit?: string | undefined;
  referenceLow?: number | null | undefined;
  referenceHigh?: number | null | undefined;
}

export interface Badged {
  text: string;
  tone: BadgeTone;
  /** Read by screen readers instead of the text (a flag's letter is not a word). */
  label?: string;
}

/** How one entry reads in the record's list: a title, a badge, detail lines. */
export interface ItemView {
  title: string;
  badge?: Badged;
  lines: string[];
}

/** How one entry reads in the portal: a title, a badge, label/value pairs and a note. */
export interface PortalItemView {
  title: string;
  badge?: Badged;
  fields: { label: string; value: string | null | undefined }[];
  note?: string | null;
}

/**
 * How a kind shows its share of the Medical Dashboard. The contract (contracts/kinds/<kind>.ts `dashboard`) decides
 * the numbers: which counters, which alerts, which rows each panel part lists; contracts/record-dashboard.ts puts
 * them in order. The client only draws them.
 */
export interface KindDashboardView<K extends RecordKind> {
  /** One of the kind's panel parts (its rows are never empty here). */
  part?: (part: { panel: string; heading: string | null; rows: RecordRows[K][] }, t: TFunction) => ReactNode;
  /** An alert's text when its values need translating; by default record:alerts.<key> with its values. */
  alert?: (alert: DashboardAlert, t: TFunction) => string;
}

export interface KindView<K extends RecordKind> {
  kind: K;
  /** The add form's fields, in order. */
  fields: FieldSpec[];
  /**
   * The request body from the generic one (number fields already numbers, blank ones null; an unpicked code null),
   * for a kind whose fields need more than that.
   */
  toPayload?(payload: Record<string, unknown>): Record<string, unknown>;
  /** Fields a pick from the type-ahead fills in (e.g. a test's unit and range), beside the code itself. */
  onPick?(entry: PickedCode): FormValues;
  item(row: RecordRows[K], t: TFunction): ItemView;
  /** What the portal shows; null for a kind the portal does not show. */
  portal: K extends PortalKind ? PortalView<K> : null;
  dashboard?: KindDashboardView<K>;
}

export interface PortalView<K extends PortalKind> {
  item(row: PortalRows[K][number], t: TFunction): PortalItemView;
  /** Counted on the portal's Overview. */
  counted: boolean;
}

/** Drops empty lines. */
export const present = (lines: (string | false | null | undefined)[]): string[] => lines.filter((l): l is string => Boolean(l));

/** A date as the lists show it (en-GB), or null. */
export const day = (d: string | null | undefined): string | null => (d ? formatDate(d) : null);

/** A kind's status colours (SPEC §4): its values' tones, and the tone of any other value. */
export interface StatusColours {
  tones: ToneTable;
  otherwise: BadgeTone;
}

/** A status or severity badge in the record: translated under record:<labels>, shown as recorded when unknown. */
export const recordBadge = (t: TFunction, labels: 'status' | 'severity', value: string, colours: StatusColours): Badged => ({
  text: t(`record:${labels}.${value}`, { defaultValue: value }),
  tone: statusTone(colours.tones, value, colours.otherwise),
});

/** The same badge in the portal: translated under portal:status (lower case) when known, else as recorded. */
export function portalBadge(t: TFunction, value: string, colours: StatusColours): Badged {
  const key = value.trim().toLowerCase();
  const text = /^[a-z]+$/.test(key) ? t(`portal:status.${key}`, { defaultValue: value }) : value;
  return { text, tone: statusTone(colours.tones, value, colours.otherwise) };
}
