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
  client?:
    | {
        id: string;
        name: string;
        scopes: ReadonlySet<string>;
        /** The client's own limits set by an administrator (decision 050); null: the server's default. */
        limits?: { search: number | null; accessGrant: number | null };
      }
    | undefined;
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

/**
 * A staff actor taken from the worker's cache (decision 028), to be confirmed by the one statement that does the
 * request's work (actorCheckSlotted): that statement runs only if the session is still live and its actor unchanged.
 */
export interface ActorCheck {
  /** The session's sid (SHA-256 of its token). */
  sid: string;
  /** loadSessionActor's fingerprint of what the cached actor was built from. */
  fingerprint: string;
  /** The request's time: the session must be live then. */
  now: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the session plugin; null when signed out. */
    actor: Actor | null;
    meta: RequestMeta;
    /**
     * Set when `actor` came from the worker's cache (routes with `config.actorInStatement` only): the route's
     * statement must confirm it (decision 028). Null when the actor was read from the database on this request.
     */
    actorCheck: ActorCheck | null;
    /** Reads the actor from the database now (not from the cache), replacing `actor` and clearing `actorCheck`. */
    refreshActor(): Promise<void>;
  }
  interface FastifyContextConfig {
    /** The route's statement confirms a cached actor itself (actorCheckSlotted), so the actor is not read first. */
    actorInStatement?: boolean;
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
