// The per-request actor (DESIGN.md §4, STYLE habit 3): built once per request from the session,
// with permissions read from the database on every request.
import type { Permission } from '../../contracts/constants';

export interface StaffActor {
  kind: 'staff';
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
  roleId: number | null;
  roleName: string | null;
  roleDisplayName: string | null;
  facility: string | null;
  department: string | null;
  permissions: ReadonlySet<Permission>;
  /**
   * Set when a system client calls the FHIR API with its bearer token (decision 020): the client acts through its own
   * non-interactive staff account, and its scopes bound every call besides the account's permissions.
   */
  client?: { id: string; name: string; scopes: ReadonlySet<string> } | undefined;
}

export interface PatientActor {
  kind: 'patient';
  patientId: number;
}

export type Actor = StaffActor | PatientActor;

/** Who asked, from where: what the audit writer records besides the actor. */
export interface RequestMeta {
  ip: string;
  userAgent: string | null;
  /** SHA-256 of the session token (never the token itself), or null when signed out. */
  sessionHash: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session plugin; null when signed out. */
    actor: Actor | null;
    meta: RequestMeta;
  }
}

export const staffDisplayName = (a: Pick<StaffActor, 'firstName' | 'lastName' | 'email'>): string =>
  `${a.firstName} ${a.lastName}`.trim() || a.email;

/**
 * The actor's role as audit rows record it, so a later role change cannot rewrite who did what (issue 10 item 9):
 * stored in the newValues of the rows a patient's access history shows (grants and searches).
 */
export const actorRoleAtTheTime = (a: Pick<StaffActor, 'roleName' | 'roleDisplayName'>): { name: string; displayName: string } | null =>
  a.roleName && a.roleDisplayName ? { name: a.roleName, displayName: a.roleDisplayName } : null;
