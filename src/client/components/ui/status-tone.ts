// The one colour rule for record statuses, in the staff record and the portal alike (SPEC §4, §2): an active
// diagnosis and a severe allergy stand out (destructive); an active medication is green, so diagnoses and
// medications differ when active; resolved and completed are green, scheduled blue, chronic and moderate yellow.
// Values are matched without case (the portal also shows the older high/medium severities).
import type { BadgeTone } from './badge';

export type StatusKind = 'diagnosis' | 'appointment' | 'allergy' | 'medication';

const TONES: Record<StatusKind, Record<string, BadgeTone>> = {
  diagnosis: { active: 'destructive', chronic: 'yellow', resolved: 'green' },
  medication: { active: 'green', completed: 'gray', discontinued: 'gray' },
  appointment: { scheduled: 'blue', completed: 'green', cancelled: 'gray' },
  allergy: { severe: 'destructive', high: 'destructive', moderate: 'yellow', medium: 'yellow' },
};
const OTHERWISE: Record<StatusKind, BadgeTone> = { diagnosis: 'gray', medication: 'gray', appointment: 'gray', allergy: 'neutral' };

export function statusTone(kind: StatusKind, value: string): BadgeTone {
  return TONES[kind][value.trim().toLowerCase()] ?? OTHERWISE[kind];
}
