// The delta read merged into a kept record (issue 27): by kind and id, the newest version replacing the kept one,
// entered in error and withheld rows leaving the device. Rows shaped as GET /api/patients/{id}/changes answers.
import { describe, expect, it } from 'vitest';
import type { ChangesResponse } from '../../../../contracts/record-versions';
import { emptyLists, mergeChanges } from './merge-changes';

type Change = ChangesResponse['changes'][number];
const allergy = (id: number, version: number, allergen: string, state: Change['state'] = 'current'): Change => ({
  kind: 'allergies',
  uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
  id,
  version,
  state,
  row: state === 'withheld' ? null : { id, allergen, reaction: 'Hives', severity: 'Severe', reportedDate: '2019-11-20', version },
});

describe('mergeChanges', () => {
  it('adds new rows, replaces a row by kind and id, and removes rows entered in error or withheld', () => {
    const first = mergeChanges(emptyLists(), [allergy(1, 1, 'Penicillin'), allergy(2, 1, 'Sulfa'), allergy(3, 1, 'Latex')]);
    expect(first.allergies.map((r) => r.id)).toEqual([1, 2, 3]);
    const second = mergeChanges(first, [
      allergy(1, 2, 'Amoxicillin'),
      allergy(2, 2, 'Sulfa', 'entered-in-error'),
      allergy(3, 2, '', 'withheld'),
    ]);
    expect(second.allergies).toEqual([expect.objectContaining({ id: 1, allergen: 'Amoxicillin', version: 2 })]);
    expect(first.allergies).toHaveLength(3); // the kept lists are not changed in place
    expect(second.diagnoses).toEqual([]);
  });

  it('ignores a removal of a row it never kept', () => {
    expect(mergeChanges(emptyLists(), [allergy(9, 3, 'Latex', 'entered-in-error')]).allergies).toEqual([]);
  });
});
