// The one presenter of clinical rows (issue 23 item 4; decision 041): every read of a row of a record kind (the
// staff API, the record summary and dashboard, the portal, FHIR and $summary, the row's history, the delta read, the
// audit views, reports and AuditEvents) turns the stored row into what the reader sees here, and nowhere else. The
// stored row carries a per-row flag, `sealed`; until sealing is designed (who may open a sealed item and how), a
// sealed row is withheld from every reader: lists leave it out, a read of it finds nothing, an audit payload of it
// shows { withheld: true }.
import { KIND_CONTRACTS, RECORD_KINDS, type RecordKind, type RecordRows } from '../../../contracts/kinds';

type Stored = Record<string, unknown>;

/** Columns a stored row has that no reader sees. */
const INTERNAL = ['sealed', 'changeXid'] as const;

/** The row a reader sees, or null when it is withheld. */
export function presentRow<K extends RecordKind>(_kind: K, stored: Stored): RecordRows[K] | null {
  if (stored.sealed === true) return null;
  const row: Stored = { ...stored };
  for (const key of INTERNAL) delete row[key];
  return row as RecordRows[K];
}

/** The rows a reader sees of a list, in the list's order. */
export function presentRows<K extends RecordKind>(kind: K, stored: readonly Stored[]): RecordRows[K][] {
  const out: RecordRows[K][] = [];
  for (const s of stored) {
    const row = presentRow(kind, s);
    if (row) out.push(row);
  }
  return out;
}

const KIND_OF_RESOURCE = new Map<string, RecordKind>(RECORD_KINDS.map((k) => [KIND_CONTRACTS[k].resourceType, k]));

/** The record kind whose rows an audit resource type names, or null for any other resource. */
export const kindOfResource = (resourceType: string): RecordKind | null => KIND_OF_RESOURCE.get(resourceType) ?? null;

/** Shown in place of an audit payload whose clinical row is withheld. */
export const WITHHELD = { withheld: true } as const;

/**
 * An audit payload (old or new values) as an auditor sees it: for a clinical resource, WITHHELD when its row is
 * sealed (`sealed`, from sealedFlagSql in sealed-flag.repository.ts, in the same read), else its values without internal columns.
 */
export function presentPayload(resourceType: string, values: unknown, sealed: boolean): unknown {
  const kind = kindOfResource(resourceType);
  if (!kind || values === null || typeof values !== 'object' || Array.isArray(values)) return values;
  return presentRow(kind, { ...(values as Stored), sealed }) ?? WITHHELD;
}
