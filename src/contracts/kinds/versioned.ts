// Versioned rows (issue 23 item 1; DESIGN.md §12 "Rows are versioned"): every clinical row carries a public UUID,
// its version (1 when created, one more with every edit), when and by whom it last changed, and, once it has been
// marked entered in error (what DELETE does now), when, by whom and why. Lists, the dashboard, the portal and FHIR
// leave entered-in-error rows out; the row's history and the delta read still carry them.
import { z } from 'zod';

export const versionedRowShape = {
  uuid: z.string(),
  version: z.number().int().min(1),
  /** ISO 8601 UTC. */
  updatedAt: z.string(),
  /** The staff member's name (as the row's other "by" fields); null for rows stored before versions existed. */
  updatedBy: z.string().nullable(),
  enteredInErrorAt: z.string().nullable(),
  enteredInErrorBy: z.string().nullable(),
  enteredInErrorReason: z.string().nullable(),
};
export type VersionedRow = { [K in keyof typeof versionedRowShape]: z.infer<(typeof versionedRowShape)[K]> };

/** The fields of a row the server keeps itself: an edit never sets them, and "what changed" never names them. */
export const VERSION_FIELDS = ['id', 'patientId', ...Object.keys(versionedRowShape)] as const;

/** What the patient portal leaves out of a row: the version fields only staff need (lists hold no entered-in-error rows). */
export const PORTAL_HIDDEN = { updatedBy: true, enteredInErrorAt: true, enteredInErrorBy: true, enteredInErrorReason: true } as const;
