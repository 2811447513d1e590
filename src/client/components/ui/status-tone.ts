// The one colour rule for record statuses, in the staff record and the portal alike (SPEC §4, §2): each kind names
// its values' tones (features/record/kinds); values are matched without case (the portal also shows the older
// high/medium severities), and a value the kind does not name takes its `otherwise` tone.
import type { BadgeTone } from './badge';

export type ToneTable = Readonly<Record<string, BadgeTone>>;

export function statusTone(tones: ToneTable, value: string, otherwise: BadgeTone = 'gray'): BadgeTone {
  return tones[value.trim().toLowerCase()] ?? otherwise;
}
