// What the patient is told about their records joined into one (issue 24 item 7, decision 048): each live join of
// their record, where each record was registered, when they were joined, and whether they reported it wrong.
import { z } from 'zod';

export const portalJoin = z.object({
  id: z.number().int(),
  /** ISO 8601 UTC. */
  joinedAt: z.string().nullable(),
  /** Where each of the two records was registered (the facility of its CREATE audit row); null when not known. */
  facilities: z.array(z.string().nullable()),
  /** The patient reported this join as wrong (a privacy-review case was opened). */
  reported: z.boolean(),
});
export type PortalJoin = z.infer<typeof portalJoin>;

export const portalJoins = z.object({ items: z.array(portalJoin) });
export type PortalJoins = z.infer<typeof portalJoins>;

/** POST /api/patient-portal/joins/{id}/report: `created` false when this patient had reported it already. */
export const portalJoinReport = z.object({ created: z.boolean(), caseId: z.number().int() });
export type PortalJoinReport = z.infer<typeof portalJoinReport>;
