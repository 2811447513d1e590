// Offline sync (issue 27, decision 061): POST /api/devices/{id}/sync applies a device's queued creates and uploads its
// offline opens. Each write is applied on its own, in its own transaction with its audit row, and answers its own
// outcome (one refused write never blocks the others); each is idempotent by its clientId: the same write again answers
// what the first did, with no second row or audit row. What a batch's clientIds already stand for is read once per
// batch (one read each for adds, registrations, review tasks and opens), so a batch sent again costs a few reads.
//
// - An entry is an add (records.service addOfflineRecordItem, the clientId its Idempotency-Key). Its grant: a live one
//   now, or one whose window covered the device's time, which must lie within OFFLINE_EXPIRY_HOURS and not in the
//   future (CLOCK_SKEW_MS either way); else needs_attention OFFLINE_NO_GRANT. A body the kind refuses: needs_attention
//   VALIDATION_FAILED with the issues. A patient joined meanwhile: the entry goes to the survivor. A row of the same kind
//   created or edited by someone else since the device's cursor (or at all, when it had none): stored, and a review
//   task RECORD_CHANGED_SINCE_SEEN opened (saved_for_review). Warnings the kind would ask to confirm online: stored
//   (the clinician saw the entry when they made it), not counted as confirmed overrides, and a review task
//   WARNINGS_NOT_CONFIRMED opened, naming them (saved_for_review).
// - A registration (patients.create) stores a provisional patient (its offline_registrations row), claimed by clientId,
//   runs the matcher as the online registration does (its pairs go to the duplicates queue), and gives the registering
//   user a consent grant from the device's time, as opening the record after registering online would. A likely
//   duplicate: a review task POSSIBLE_DUPLICATE_PATIENT (saved_for_review). No portal activation code is issued
//   offline: the online route for it issues one later. Entries naming the registration's clientId go to its patient;
//   while the registration is unknown, they are `waiting`.
// - Each offline open of a record the user held a grant for at its device time becomes a VIEW PATIENT audit row
//   `{ view: 'OFFLINE', deviceId, deviceTime, clientId }` (the patient's access history shows it); an open without
//   one is refused: left out of accessLogSaved, named in accessLogRefused, and raised once as a security event
//   OFFLINE_OPEN_REFUSED for the privacy officers.
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import { ACCESS_GRANT_HOURS } from '../../../contracts/access';
import { addPatientInput } from '../../../contracts/patients';
import type { FieldIssue } from '../../../contracts/errors';
import type { RecordKind, recordInputs } from '../../../contracts/kinds';
import {
  OFFLINE_EXPIRY_HOURS,
  type offlineEntry,
  type offlineRegistration,
  type syncInput,
  type SyncResponse,
  type SyncResult,
} from '../../../contracts/offline';
import { canonicalJson, toJsonValue } from '../../audit/canonical-json';
import { actorRoleAtTheTime, type StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { AppError } from '../../errors/app-error';
import { recordSecurityEvent } from '../auth/auth.service';
import type { Thresholds } from '../duplicates/match-scoring';
import { matchPatient } from '../duplicates/matcher';
import { addPatient } from '../patients/patients.service';
import { cursorSince } from '../records/record-history.service';
import { addOfflineRecordItem, type NewRecordItem } from '../records/records.service';
import { ownActiveDevice } from './devices.service';
import { insertReview, reviewsOfWrites } from './offline-reviews.repository';
import {
  changedSinceSeen,
  claimEvents,
  claimRegistration,
  eventsOf,
  insertRegistrationGrant,
  keyedAdds,
  opensGranted,
  registrationsOf,
  rowPatient,
  setRegistrationReview,
  type KeyedAdd,
  type Registration,
} from './sync.repository';

type Scope = RequestScope<StaffActor>;
type Entry = z.output<typeof offlineEntry>;
type Registering = z.output<typeof offlineRegistration>;
type SyncInput = z.output<typeof syncInput>;

const HOUR_MS = 60 * 60 * 1000;
/** How far a device's clock may be ahead of or behind the server's. */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;
/** How often an entry follows its patient into the record it was joined into before it is refused. */
const JOIN_FOLLOWS = 3;

export interface SyncSettings {
  /** The kinds' add schemas, built on the server's clock plus CLOCK_SKEW_MS ("not in the future" as the device saw it). */
  inputs: ReturnType<typeof recordInputs>;
  thresholds: Thresholds;
}

/** What the batch's clientIds already stand for, read once per batch. */
interface Known {
  adds: Map<string, KeyedAdd>;
  registrations: Map<string, Registration>;
  reviews: Map<string, number>;
}

const result = (clientId: string, outcome: SyncResult['outcome'], rest: Partial<SyncResult> = {}): SyncResult => ({
  clientId,
  outcome,
  patientId: null,
  id: null,
  reviewId: null,
  code: null,
  ...rest,
});
const issuesOf = (error: z.ZodError): FieldIssue[] => error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
const refused = (clientId: string, code: string, issues?: FieldIssue[]): SyncResult =>
  result(clientId, 'needs_attention', { code, ...(issues?.length ? { issues } : {}) });
const saved = (clientId: string, patientId: number, id: number, reviewId: number | null): SyncResult =>
  result(clientId, reviewId === null ? 'saved' : 'saved_for_review', { patientId, id, reviewId });

/** The device's time, when it lies within OFFLINE_EXPIRY_HOURS before now and not in the future (with skew); else null. */
function deviceTimeOf(c: Scope, iso: string): Date | null {
  const at = new Date(iso);
  const now = c.now.getTime();
  if (Number.isNaN(at.getTime()) || at.getTime() > now + CLOCK_SKEW_MS || at.getTime() < now - OFFLINE_EXPIRY_HOURS * HOUR_MS) return null;
  return at;
}

const hashOf = (write: unknown): string =>
  createHash('sha256')
    .update(canonicalJson(toJsonValue({ offline: write })))
    .digest('hex');

/** POST /api/devices/{id}/sync: each write's outcome, in the order sent, and which offline opens are in the audit trail. */
export async function syncDevice(c: Scope, deviceId: string, input: SyncInput, settings: SyncSettings): Promise<SyncResponse> {
  await ownActiveDevice(c, deviceId);
  const userId = c.actor.userId;
  const entries = input.writes.filter((w): w is Entry => w.type === 'entry');
  const namedRegistrations = [
    ...input.writes.filter((w) => w.type === 'patient').map((w) => w.clientId),
    ...entries.flatMap((e) => ('clientId' in e.patient ? [e.patient.clientId] : [])),
  ];
  const [adds, registrations] = await Promise.all([
    keyedAdds(
      c.db,
      userId,
      entries.map((e) => e.clientId),
    ),
    registrationsOf(c.db, userId, namedRegistrations),
  ]);
  const reviews = await reviewsOfWrites(c.db, userId, [...adds.keys(), ...registrations.keys()]);
  const known: Known = { adds, registrations, reviews };

  const results: SyncResult[] = [];
  for (const write of input.writes) {
    results.push(
      write.type === 'entry'
        ? await syncEntry(c, deviceId, write, known, settings)
        : await syncRegistration(c, deviceId, write, known, settings),
    );
  }
  const opens = await syncOpens(c, deviceId, input.accessLog);
  return { serverTime: c.now.toISOString(), results, ...opens };
}

/** An entry sent before: what its add stored (the row's patient now: the survivor after a join), or the key's misuse. */
async function replayedEntry(c: Scope, entry: Entry, add: KeyedAdd, known: Known): Promise<SyncResult> {
  if (add.requestHash !== hashOf(entry) || add.kind !== entry.kind) return refused(entry.clientId, 'IDEMPOTENCY_KEY_REUSED');
  const patientId = await rowPatient(c.db, entry.kind, add.itemId);
  if (patientId === null) return refused(entry.clientId, 'RECORD_ENTRY_NOT_FOUND');
  return saved(entry.clientId, patientId, add.itemId, known.reviews.get(entry.clientId) ?? null);
}

async function syncEntry(c: Scope, deviceId: string, entry: Entry, known: Known, settings: SyncSettings): Promise<SyncResult> {
  const { clientId, kind } = entry;
  const earlier = known.adds.get(clientId);
  if (earlier) return replayedEntry(c, entry, earlier, known);
  if (!c.actor.permissions.has('records.write')) return refused(clientId, 'PERMISSION_REQUIRED');
  const at = deviceTimeOf(c, entry.deviceTime);
  if (!at) return refused(clientId, 'OFFLINE_NO_GRANT');
  const parsed = (settings.inputs[kind] as z.ZodType).safeParse(entry.body);
  if (!parsed.success) return refused(clientId, 'VALIDATION_FAILED', issuesOf(parsed.error));
  let named: number;
  if ('id' in entry.patient) named = entry.patient.id;
  else {
    const registration = known.registrations.get(entry.patient.clientId);
    if (!registration) return result(clientId, 'waiting');
    named = registration.patientId;
  }
  const since = entry.seenCursor === null ? null : cursorSince(named, entry.seenCursor);
  const requestHash = hashOf(entry);
  let target = named;
  for (let follow = 0; ; follow++) {
    try {
      const patientId = target;
      const added = await addOfflineRecordItem(c, kind, patientId, parsed.data as NewRecordItem<RecordKind>, clientId, {
        window: { from: new Date(at.getTime() - CLOCK_SKEW_MS), to: new Date(at.getTime() + CLOCK_SKEW_MS) },
        requestHash,
        event: { deviceId, deviceTime: entry.deviceTime, clientId },
        afterStore: async (scope, row, warnings) => {
          const changed = await changedSinceSeen(scope.tx, kind, patientId, since, c.actor.userId, row.id);
          if (!changed && warnings.length === 0) return null;
          return insertReview(scope.tx, {
            reason: changed ? 'RECORD_CHANGED_SINCE_SEEN' : 'WARNINGS_NOT_CONFIRMED',
            patientId,
            kind,
            rowId: row.id,
            warnings: warnings.map((w) => w.code),
            userId: c.actor.userId,
            clientId,
            deviceId,
            deviceTime: at,
            now: c.now,
          });
        },
      });
      const row = added.row as { id: number; patientId: number };
      if (!added.replayed) return saved(clientId, patientId, row.id, added.reviewId);
      // Stored meanwhile by the same write sent concurrently: answered as that one.
      const reviewId = (await reviewsOfWrites(c.db, c.actor.userId, [clientId])).get(clientId) ?? null;
      return saved(clientId, row.patientId, row.id, reviewId);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      const survivor = (err.details as { survivorId?: unknown } | undefined)?.survivorId;
      if (err.code === 'PATIENT_JOINED' && typeof survivor === 'number' && follow < JOIN_FOLLOWS) {
        target = survivor;
        continue;
      }
      return refused(clientId, err.code, err.issues);
    }
  }
}

/** Thrown in a registration's transaction when its clientId was claimed meanwhile: rolled back, answered as that one. */
class RegistrationTaken extends Error {}

async function syncRegistration(c: Scope, deviceId: string, write: Registering, known: Known, settings: SyncSettings): Promise<SyncResult> {
  const { clientId } = write;
  const answer = (r: Registration): SyncResult => saved(clientId, r.patientId, r.patientId, r.reviewId);
  const earlier = known.registrations.get(clientId);
  if (earlier) return answer(earlier);
  if (!c.actor.permissions.has('patients.create')) return refused(clientId, 'PERMISSION_REQUIRED');
  const at = deviceTimeOf(c, write.deviceTime);
  if (!at) return refused(clientId, 'OFFLINE_DEVICE_TIME_INVALID');
  const body = addPatientInput.safeParse(write.body);
  if (!body.success) return refused(clientId, 'VALIDATION_FAILED', issuesOf(body.error));
  try {
    const stored = await inAuditedTransaction(c, async (ctx) => {
      const patient = await addPatient(ctx.tx, body.data);
      const claim = { userId: c.actor.userId, clientId, patientId: patient.id, deviceId, deviceTime: at, now: c.now };
      if (!(await claimRegistration(ctx.tx, claim))) throw new RegistrationTaken();
      const expiresAt = new Date(at.getTime() + ACCESS_GRANT_HOURS * HOUR_MS);
      await insertRegistrationGrant(ctx.tx, { userId: c.actor.userId, patientId: patient.id, grantedAt: at, expiresAt });
      // The new patient's pairs for the duplicates queue, in the registration's transaction (decision 046).
      const match = await matchPatient(ctx.tx, patient.id, settings.thresholds, c.now);
      let reviewId: number | null = null;
      if (match.pairs > 0) {
        reviewId = await insertReview(ctx.tx, {
          reason: 'POSSIBLE_DUPLICATE_PATIENT',
          patientId: patient.id,
          kind: null,
          rowId: null,
          warnings: [],
          userId: c.actor.userId,
          clientId,
          deviceId,
          deviceTime: at,
          now: c.now,
        });
        await setRegistrationReview(ctx.tx, c.actor.userId, clientId, reviewId);
      }
      const offline = { deviceId, deviceTime: write.deviceTime, clientId };
      return ctx.audited(
        { patientId: patient.id, reviewId },
        {
          action: 'CREATE',
          resourceType: 'PATIENT',
          resourceId: patient.id,
          patientId: patient.id,
          newValues: {
            ...patient,
            provisional: true,
            ...offline,
            ...(reviewId === null ? {} : { reviewId, possibleDuplicates: match.pairs }),
          },
        },
        {
          action: 'VIEW',
          resourceType: 'PATIENT',
          resourceId: patient.id,
          patientId: patient.id,
          newValues: {
            access: 'GRANTED',
            expiresAt: expiresAt.toISOString(),
            role: actorRoleAtTheTime(c.actor),
            registeredOffline: true,
            ...offline,
          },
          complianceFlags: { type: 'CONSENT' },
        },
      );
    });
    const registration = { patientId: stored.patientId, reviewId: stored.reviewId };
    known.registrations.set(clientId, registration);
    return answer(registration);
  } catch (err) {
    const again = (await registrationsOf(c.db, c.actor.userId, [clientId])).get(clientId);
    if (again) {
      known.registrations.set(clientId, again);
      return answer(again);
    }
    if (err instanceof AppError) return refused(clientId, err.code, err.issues);
    throw err;
  }
}

/** The offline opens: the granted ones into the audit trail, the others refused; both remembered by clientId. */
async function syncOpens(
  c: Scope,
  deviceId: string,
  opens: SyncInput['accessLog'],
): Promise<Pick<SyncResponse, 'accessLogSaved' | 'accessLogRefused'>> {
  if (opens.length === 0) return { accessLogSaved: [], accessLogRefused: [] };
  const userId = c.actor.userId;
  const ledger = await eventsOf(
    c.db,
    userId,
    opens.map((o) => o.clientId),
  );
  // An open sent twice in one batch is one open.
  const fresh = [...new Map(opens.map((o) => [o.clientId, o])).values()].filter((o) => !ledger.has(o.clientId));
  const timed = fresh.flatMap((o) => {
    const at = deviceTimeOf(c, o.deviceTime);
    return at ? [{ ...o, at }] : [];
  });
  const granted = await opensGranted(
    c.db,
    userId,
    timed.map((o) => ({ clientId: o.clientId, patientId: o.patientId, deviceTime: o.at })),
    CLOCK_SKEW_MS,
  );
  const who = { userId, deviceId, now: c.now };
  const toLog = timed.filter((o) => granted.has(o.clientId));
  if (toLog.length > 0) {
    await inAuditedTransaction(c, async (ctx) => {
      const claimed = await claimEvents(
        ctx.tx,
        who,
        'open',
        toLog.map((o) => ({ clientId: o.clientId, patientId: o.patientId, kind: null, deviceTime: o.at })),
      );
      const rows = toLog
        .filter((o) => claimed.has(o.clientId))
        .map((o) => ({
          action: 'VIEW' as const,
          resourceType: 'PATIENT' as const,
          resourceId: o.patientId,
          patientId: o.patientId,
          newValues: { view: 'OFFLINE', deviceId, deviceTime: o.deviceTime, clientId: o.clientId, role: actorRoleAtTheTime(c.actor) },
        }));
      // Every one claimed meanwhile by the same batch sent concurrently: nothing of this transaction is kept.
      if (rows.length === 0) throw new OpensTaken();
      return ctx.audited(null, rows[0]!, ...rows.slice(1));
    }).catch((err: unknown) => {
      if (!(err instanceof OpensTaken)) throw err;
    });
  }
  const refusedNow = fresh.filter((o) => !granted.has(o.clientId));
  if (refusedNow.length > 0) {
    await c.db.transaction(async (tx) => {
      const claimed = await claimEvents(
        tx,
        who,
        'open-refused',
        refusedNow.map((o) => ({ clientId: o.clientId, patientId: o.patientId, kind: null, deviceTime: null })),
      );
      if (claimed.size === 0) return;
      const named = refusedNow.filter((o) => claimed.has(o.clientId));
      await recordSecurityEvent(tx, {
        userId,
        eventType: 'OFFLINE_OPEN_REFUSED',
        severity: 'medium',
        description: `${named.length} offline record opens refused: no access grant covered their time`,
        metadata: { deviceId, opens: named.map((o) => ({ clientId: o.clientId, patientId: o.patientId, deviceTime: o.deviceTime })) },
        ipAddress: c.meta.ip,
        userAgent: c.meta.userAgent,
        timestamp: c.now,
        facility: c.actor.facility,
      });
    });
  }
  const after = await eventsOf(
    c.db,
    userId,
    opens.map((o) => o.clientId),
  );
  const ofType = (type: 'open' | 'open-refused') => [...new Set(opens.map((o) => o.clientId))].filter((id) => after.get(id)?.has(type));
  return { accessLogSaved: ofType('open'), accessLogRefused: ofType('open-refused') };
}

/** Thrown when every open of a transaction was claimed meanwhile: it rolls back with no audit row. */
class OpensTaken extends Error {}
