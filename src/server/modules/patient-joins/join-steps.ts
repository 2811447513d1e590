// The join and its undo inside one transaction (decision 048), driven by the declared list of patient references:
// the caller has locked both patient rows (lockBoth, id order) and the join row.
import type { JoinKeep } from '../../../contracts/patient-joins';
import type { DbOrTx } from '../../db/client';
import { matchPatient } from '../duplicates/matcher';
import type { Thresholds } from '../duplicates/match-scoring';
import { refreshImmunizationDue } from '../immunization/immunization-due.service';
import { endPortalSessions } from '../portal/portal-joins.service';
import { moveRows, moveRowsBack, reinsertRemoved, removeDerived, removeLikeRows, removeOpenPairs } from './join-ledger.repository';
import {
  DEMOGRAPHIC_COLUMNS,
  setDemographic,
  setReplacedBy,
  type DemographicField,
  type PatientValues,
  versionsFollowItems,
} from './join-patients.repository';
import type { JoinRow } from './joins.repository';
import { referencesTreated } from './patient-references';

export interface JoinOutcome {
  replaced: JoinRow['replaced'];
  rowsMoved: number;
}

const PICKED_FIELDS = Object.keys(DEMOGRAPHIC_COLUMNS).filter((f) => f !== 'restricted') as DemographicField[];

/** The survivor's new demographic values: each field the reviewer kept from the merged record, and restricted if either was. */
export function replacedValues(survivor: PatientValues, merged: PatientValues, keep: JoinKeep): JoinRow['replaced'] {
  const replaced: JoinRow['replaced'] = {};
  for (const field of PICKED_FIELDS) {
    if (keep[field as keyof JoinKeep] !== merged.id) continue;
    if (survivor[field] !== merged[field]) replaced[field] = { from: survivor[field], to: merged[field] };
  }
  if (merged.restricted === 'true' && survivor.restricted !== 'true') replaced.restricted = { from: survivor.restricted, to: 'true' };
  return replaced;
}

/**
 * Performs a join: demographics, replaced_by, every reference re-pointed (ledger), pairs and derived rows. A portal
 * session open on the merged-away record ends: its record is now the survivor, which the patient reaches by signing in
 * again (with either number).
 */
export async function performJoin(
  db: DbOrTx,
  join: { id: number; keep: JoinKeep },
  survivor: PatientValues,
  merged: PatientValues,
  context: { now: Date; thresholds: Thresholds },
): Promise<JoinOutcome> {
  const replaced = replacedValues(survivor, merged, join.keep);
  for (const [field, change] of Object.entries(replaced))
    await setDemographic(db, survivor.id, field as DemographicField, change.to, change.from);
  await setReplacedBy(db, merged.id, survivor.id, context.now);
  await endPortalSessions(db, [merged.id]);

  let rowsMoved = 0;
  for (const ref of referencesTreated('keyed')) {
    const portalFromMerged = ref.pick === 'portal' && join.keep.portal === merged.id;
    const [loser, winner] = portalFromMerged ? [survivor.id, merged.id] : [merged.id, survivor.id];
    await removeLikeRows(db, join.id, ref, loser, winner);
  }
  for (const ref of referencesTreated('moved', 'keyed')) rowsMoved += await moveRows(db, join.id, ref, merged.id, survivor.id);
  await removeOpenPairs(db, join.id, merged.id);
  for (const ref of referencesTreated('derived')) await removeDerived(db, ref, merged.id);
  await refreshImmunizationDue(db, [survivor.id], context.now);
  await matchPatient(db, survivor.id, context.thresholds, context.now);
  return { replaced, rowsMoved };
}

/**
 * Undoes a performed join: the ledger backwards (moves back, then removed rows re-inserted), demographics, the link.
 * Portal sessions open on the survivor end: one may be the other person's, signed in with the old number while joined.
 */
export async function performUndo(
  db: DbOrTx,
  join: JoinRow,
  context: { now: Date },
): Promise<{ rowsMovedBack: number; restored: string[] }> {
  let rowsMovedBack = 0;
  for (const ref of referencesTreated('moved', 'keyed'))
    rowsMovedBack += await moveRowsBack(db, join.id, ref, join.survivorId, join.mergedId);
  await versionsFollowItems(db, [join.survivorId, join.mergedId]);
  const removedTables = new Set([...referencesTreated('keyed', 'open-pairs')].map((r) => r.table));
  for (const table of removedTables) await reinsertRemoved(db, join.id, table);
  const restored: string[] = [];
  for (const [field, change] of Object.entries(join.replaced)) {
    if (!(field in DEMOGRAPHIC_COLUMNS)) continue;
    if (await setDemographic(db, join.survivorId, field as DemographicField, change.from, change.to)) restored.push(field);
  }
  await setReplacedBy(db, join.mergedId, null, null);
  await endPortalSessions(db, [join.survivorId, join.mergedId]);
  await refreshImmunizationDue(db, [join.survivorId, join.mergedId], context.now);
  return { rowsMovedBack, restored };
}
