// Stores the medicine-check warnings a change was confirmed over (decision 043), in the change's transaction.
import type { RecordKind } from '../../../contracts/kinds';
import type { RecordWarning } from '../../../contracts/record-warnings';
import type { PatientScope } from '../access/patient-scope';
import { medicineCheckOverrides } from '../../db/schema';

export interface ConfirmedChecks {
  warnings: readonly RecordWarning[];
  reason: string | null;
}

export async function insertOverrides(
  scope: PatientScope,
  kind: RecordKind,
  item: { id: number; version: number },
  confirmed: ConfirmedChecks,
  by: { userId: string; name: string; now: Date },
): Promise<void> {
  if (confirmed.warnings.length === 0) return;
  await scope.tx.insert(medicineCheckOverrides).values(
    confirmed.warnings.map((w) => ({
      patientId: scope.patientId,
      kind,
      itemId: item.id,
      itemVersion: item.version,
      code: w.code,
      tier: w.tier ?? 'serious',
      params: w.params ?? {},
      reason: confirmed.reason,
      userId: by.userId,
      byName: by.name,
      at: by.now,
    })),
  );
}
