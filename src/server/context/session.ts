// Server-side sessions (DESIGN.md §1, §5). The cookie holds a random 256-bit token; the database holds only its
// SHA-256 (sessions.sid), so a read of the table does not yield usable cookies. Any app instance can serve any
// session: everything lives in the sessions table.
import { hash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps';
import type { Config } from '../config';
import type { Db, DbOrTx } from '../db/client';
import { actorSlotValues, loadSessionActor, type ActorSlots } from './actor.repository';
import type { ActorCheck, StaffActor } from './actor';
import { deleteExpiredSessions, deleteSession, deleteSessionsOfStaffUser, insertSession } from './session.repository';

export const SESSION_COOKIE = 'nhr_sid';

const MINUTE = 60_000;
/** Idle and absolute lifetimes per kind of session (DESIGN.md §5). */
export const SESSION_POLICY = {
  staff: { idleMs: 30 * MINUTE, absoluteMs: 12 * 60 * MINUTE },
  patient: { idleMs: 15 * MINUTE, absoluteMs: 12 * 60 * MINUTE },
} as const;
/** The idle expiry is written back at most this often, not on every request. */
export const SESSION_TOUCH_MS = MINUTE;

/** Who a session belongs to. */
export type SessionSubject = { kind: 'staff'; userId: string } | { kind: 'patient'; patientId: number };

export interface Session {
  /** SHA-256 hex of the token: the sessions.sid, and what audit rows record as the session id. */
  sid: string;
  subject: SessionSubject;
  createdAt: Date;
  expire: Date;
}

/** What the sess column holds. */
type StoredSession = SessionSubject & { createdAt: string };

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/; // 32 bytes, base64url

/** SHA-256 hex of a session token, on every request: the one-shot crypto.hash, not a Hash object (issue 29). */
export const hashToken = (token: string): string => hash('sha256', token, 'hex');

/** The session token from the request's cookie, or null when absent or malformed. */
export function sessionToken(request: FastifyRequest): string | null {
  const token = request.cookies[SESSION_COOKIE];
  return token && TOKEN_PATTERN.test(token) ? token : null;
}

/** The idle expiry slid to now, capped by the absolute lifetime (loadSessionActor computes the same in SQL). */
function expiryFor(subject: SessionSubject, createdAt: Date, now: Date): Date {
  const policy = SESSION_POLICY[subject.kind];
  return new Date(Math.min(now.getTime() + policy.idleMs, createdAt.getTime() + policy.absoluteMs));
}

/** Creates a session row; returns the token for the cookie and its hash (the sid). */
export async function createSession(db: Db, subject: SessionSubject, now: Date): Promise<{ token: string; sid: string; expire: Date }> {
  const token = randomBytes(32).toString('base64url');
  const sid = hashToken(token);
  const expire = expiryFor(subject, now, now);
  const stored: StoredSession = { ...subject, createdAt: now.toISOString() };
  await insertSession(db, sid, stored, expire);
  return { token, sid, expire };
}

function parseStored(sess: unknown): { subject: SessionSubject; createdAt: Date } | null {
  if (!sess || typeof sess !== 'object') return null;
  const s = sess as Partial<Record<string, unknown>>;
  const createdAt = new Date(typeof s.createdAt === 'string' ? s.createdAt : NaN);
  if (Number.isNaN(createdAt.getTime())) return null;
  if (s.kind === 'staff' && typeof s.userId === 'string') return { subject: { kind: 'staff', userId: s.userId }, createdAt };
  if (s.kind === 'patient' && typeof s.patientId === 'number') {
    return { subject: { kind: 'patient', patientId: s.patientId }, createdAt };
  }
  return null;
}

/** A live session and, for a staff session, its user as an actor (null when no longer active or approved). */
export interface LoadedSession {
  session: Session;
  staff: StaffActor | null;
  /** What the actor was built from, digested (decision 028: a cached actor is confirmed against it). */
  fingerprint: string;
}

/**
 * The live session with this sid and its staff actor, or null: one prepared statement (issue 11) that also slides
 * the idle expiry, writing the row only when that moves the expiry by at least SESSION_TOUCH_MS, and the sign-in's
 * last activity only when it is older than that (so a busy client costs one write a minute, not one per request).
 */
export async function loadSession(db: Db, sid: string, now: Date): Promise<LoadedSession | null> {
  const row = await loadSessionActor(db, sid, now, SESSION_POLICY, SESSION_TOUCH_MS);
  if (!row) return null;
  const stored = parseStored(row.sess);
  if (!stored) return null;
  const session: Session = { sid, subject: stored.subject, createdAt: stored.createdAt, expire: row.expire };
  const staff = stored.subject.kind === 'staff' && row.staff?.userId === stored.subject.userId ? row.staff : null;
  return { session, staff, fingerprint: row.fingerprint };
}

/** The values that confirm a cached actor inside a route's hot statement (actorCheckSlotted), under the session policy (decision 028). */
export const actorSlotsOf = (check: ActorCheck): ActorSlots => actorSlotValues(check, SESSION_POLICY, SESSION_TOUCH_MS);
export { actorCheckSlotted, type ActorSlots } from './actor.repository';

export const destroySession = (db: Db, sid: string): Promise<void> => deleteSession(db, sid);

/**
 * Ends every open session of staff user `userId` (pass the transaction of the change that calls for it): their
 * next request is signed out, in every worker (a cached actor is confirmed against the sessions table).
 */
export const endSessionsOfStaffUser = (db: DbOrTx, userId: string): Promise<number> => deleteSessionsOfStaffUser(db, userId);

export const purgeExpiredSessions = (db: Db, now: Date): Promise<number> => deleteExpiredSessions(db, now);

/** HttpOnly, SameSite=Lax, Secure in production, path /; no Max-Age, so it ends with the browser session too. */
const cookieOptions = (config: Config) => ({ httpOnly: true, sameSite: 'lax', secure: config.production, path: '/' }) as const;

/**
 * The one call a sign-in route makes once the credentials are proven: ends the session the request came with (if
 * any), opens a new one with a new token, and sets the cookie. Returns the new sid.
 * Patient sign-in: `await startSession(deps, request, reply, { kind: 'patient', patientId })`.
 */
export async function startSession(
  { db, config }: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  subject: SessionSubject,
): Promise<string> {
  const previous = sessionToken(request);
  if (previous) await destroySession(db, hashToken(previous));
  const { token, sid } = await createSession(db, subject, config.now());
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(config));
  request.meta.sessionHash = sid;
  return sid;
}

/** Deletes the request's session (if any) and clears the cookie. Safe to call when signed out. */
export async function endSession({ db, config }: AppDeps, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = sessionToken(request);
  if (token) await destroySession(db, hashToken(token));
  reply.clearCookie(SESSION_COOKIE, cookieOptions(config));
  request.actor = null;
  request.meta.sessionHash = null;
}
