// The client's record kinds, each listed once (issue 22 item 1), in the record's order (contracts/kinds): the add
// dialog, the lists, the sidebar, the dashboard and the portal read everything kind-specific from here. Adding a kind
// is its file beside this one and a line below.
import type { TFunction } from '../../../lib/translator';
import { PORTAL_KINDS, RECORD_KINDS, kindContract, type PortalKind, type PortalRows, type RecordKind } from '../../../../contracts/kinds';
import { allergies } from './allergies';
import { appointments } from './appointments';
import { diagnoses } from './diagnoses';
import { labResults } from './lab-results';
import { medications } from './medications';
import { vaccines } from './vaccines';
import { vitals } from './vitals';
import type { FieldSpec, FormValues, KindView, PortalItemView, PortalView } from './kind-view';

export const KIND_VIEWS: { [K in RecordKind]: KindView<K> } = {
  diagnoses,
  appointments,
  allergies,
  medications,
  vaccines,
  vitals,
  'lab-results': labResults,
};

/** One kind's view, widened: for code that handles every kind alike. */
export const kindView = (kind: RecordKind): KindView<RecordKind> => KIND_VIEWS[kind] as KindView<RecordKind>;

/** The kinds in the record's order: the record's sections after the dashboard and demographics. */
export const VIEW_KINDS: readonly RecordKind[] = RECORD_KINDS;

/** The text field a code stands for and its code systems, for a kind whose entries can be coded (its catalogue is named after it). */
export const codedField = (kind: RecordKind): { field: string; systems: readonly string[] } | null => kindContract(kind).coded;

/** The hidden fields a pick from the type-ahead sets (and typing after a pick clears). */
export const CODE_FIELDS = ['code', 'codeSystem'] as const;

/** The empty add form of a kind: selects on their first value (SPEC §4 defaults), everything else blank. */
export function formDefaults(kind: RecordKind): FormValues {
  const defaults: FormValues = {};
  for (const f of kindView(kind).fields) defaults[f.name] = f.options ? f.options[0]! : '';
  if (codedField(kind)) for (const name of CODE_FIELDS) defaults[name] = '';
  return defaults;
}

/** An entry as the edit form holds it: the kind's fields (and a coded kind's code), as text; blank for none. */
export function formValuesOf(kind: RecordKind, row: object): FormValues {
  const stored = row as Record<string, unknown>;
  const values = formDefaults(kind);
  for (const name of Object.keys(values)) {
    const v = stored[name];
    values[name] = v === null || v === undefined ? '' : String(v);
  }
  return values;
}

/**
 * The i18n key of a field's label, for "what changed": a form field's label, the coded field's for its code and code
 * system, record:fields.<name> for anything else the server names.
 */
export function fieldLabelKey(kind: RecordKind, name: string): string {
  const coded = codedField(kind);
  // The codings a FHIR client sent (decision 049) are the coded field's too.
  const field = coded && [...CODE_FIELDS, 'codings'].includes(name) ? coded.field : name;
  const spec = kindView(kind).fields.find((f) => f.name === field);
  return `record:fields.${spec?.label ?? field}`;
}

/** The translated labels of the fields an edit changed, each once (a code and its text are one field). */
export function changedLabels(kind: RecordKind, names: readonly string[], t: TFunction): string[] {
  return [...new Set(names.map((name) => t(fieldLabelKey(kind, name), { defaultValue: name })))];
}

/** The add form's values as the API takes them: numbers for number fields (blank: null), no code unless picked. */
export function formPayload(kind: RecordKind, values: FormValues): Record<string, unknown> {
  const view = kindView(kind);
  const payload: Record<string, unknown> = { ...values };
  for (const f of view.fields) {
    if (f.control !== 'number') continue;
    const v = String(values[f.name] ?? '').trim();
    payload[f.name] = v === '' ? null : Number(v);
  }
  if (codedField(kind)) for (const name of CODE_FIELDS) payload[name] = values[name] ? values[name] : null;
  return view.toPayload ? view.toPayload(payload) : payload;
}

export const fieldsOf = (kind: RecordKind): readonly FieldSpec[] => kindView(kind).fields;

/**
 * One portal list: its kind, whether the Overview counts it, how many entries it has, and its entries as the portal
 * shows them, made when its tab is shown (issue 21 item 18: the portal's first paint makes no list's entries).
 */
export interface PortalList {
  kind: PortalKind;
  counted: boolean;
  count: number;
  entries: (t: TFunction) => { id: number; view: PortalItemView }[];
}

/** The portal's lists of a patient's record, in the record's order (passed to the portal by app/). */
export function portalLists(records: PortalRows): PortalList[] {
  return PORTAL_KINDS.map((kind) => {
    const portal = KIND_VIEWS[kind].portal as PortalView<PortalKind>;
    const rows: PortalRows[PortalKind] = records[kind];
    return {
      kind,
      counted: portal.counted,
      count: rows.length,
      entries: (t) => rows.map((row) => ({ id: row.id, view: portal.item(row, t) })),
    };
  });
}

export type { FieldSpec, FormValues, ItemView, KindView, PickedCode, PortalItemView } from './kind-view';
