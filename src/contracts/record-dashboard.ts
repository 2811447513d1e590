// The Medical Dashboard's numbers (SPEC §2, §9), as pure functions of the record and `today` (YYYY-MM-DD), so they
// can be tested with a fixed clock and computed the same way wherever they are shown. What each kind adds (its
// counters, critical alerts and panel parts) is declared in its definition (contracts/kinds/*, `dashboard`); this
// file puts them together in the dashboard's order.
import { ageOn } from './calendar';
import { kindContract, RECORD_KINDS, type RecordKind, type RecordLists } from './kinds';
import type { DashboardAlert, KindDashboard } from './kinds/kind-contract';

export type DashboardInput = Partial<RecordLists> & { dateOfBirth?: string | null };

export interface DashboardCounter {
  kind: RecordKind;
  key: string;
  hint: boolean;
  value: number;
}

export interface DashboardPanel {
  panel: string;
  empty: string;
  parts: { kind: RecordKind; heading: string | null; rows: unknown[] }[];
}

export interface MedicalDashboard {
  age: number | null;
  counters: DashboardCounter[];
  alerts: (DashboardAlert & { kind: RecordKind })[];
  panels: DashboardPanel[];
}

const dashboardOf = (kind: RecordKind): KindDashboard<unknown> =>
  (kindContract(kind) as { dashboard?: KindDashboard<unknown> }).dashboard ?? {};

export function medicalDashboard(record: DashboardInput, today: string): MedicalDashboard {
  const rowsOf = (kind: RecordKind): readonly unknown[] => record[kind] ?? [];
  const counters = RECORD_KINDS.flatMap((kind) =>
    (dashboardOf(kind).counters ?? []).map((c) => ({
      position: c.position,
      counter: { kind, key: c.key, hint: c.hint ?? false, value: c.count(rowsOf(kind), today) },
    })),
  )
    .sort((a, b) => a.position - b.position)
    .map((c) => c.counter);
  const alerts = RECORD_KINDS.flatMap((kind) => (dashboardOf(kind).alerts?.(rowsOf(kind)) ?? []).map((a) => ({ ...a, kind })));
  const parts = RECORD_KINDS.flatMap((kind) =>
    (dashboardOf(kind).panels ?? []).map((p) => ({ ...p, kind, partRows: p.rows(rowsOf(kind), today) })),
  ).sort((a, b) => a.position - b.position);
  const panels: DashboardPanel[] = [];
  for (const p of parts) {
    let panel = panels.find((x) => x.panel === p.panel);
    if (!panel) panels.push((panel = { panel: p.panel, empty: p.empty, parts: [] }));
    panel.parts.push({ kind: p.kind, heading: p.heading ?? null, rows: p.partRows });
  }
  return { age: ageOn(record.dateOfBirth ?? null, today), counters, alerts, panels };
}
