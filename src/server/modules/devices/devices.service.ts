// Offline clinic mode's devices (issue 27, decision 061): switching offline mode on for a browser (a second factor
// enrolled and proven in this session, as break-the-glass asks), the administrators' list and revocation, a device's
// contact, its offline set and a discarded write; and the review tasks sync opens. Every device route but the list
// and revocation is for the device's own user: anyone else, an administrator too, is answered 404 DEVICE_NOT_FOUND.
import { randomUUID } from 'node:crypto';
import {
  OFFLINE_APPOINTMENT_DAYS,
  OFFLINE_EXPIRY_HOURS,
  OFFLINE_RECORD_HOURS,
  type Device,
  type DeviceContact,
  type DevicesPage,
  type DiscardInput,
  type EnabledDevice,
  type OfflineReview,
  type OfflineSet,
} from '../../../contracts/offline';
import type { StaffActor } from '../../context/actor';
import { inAuditedTransaction, type RequestScope } from '../../context/data-context';
import { AppError } from '../../errors/app-error';
import { reauthRequired, secondFactorProof } from '../auth/mfa.service';
import { insertDevice, revokeDeviceRow, selectDevice, selectDevices, touchOwnDevice, type DeviceRow } from './devices.repository';
import { facilityAppointments, grantedPatients } from './offline-set.repository';
import { closeReviewRow, selectReview, selectReviews } from './offline-reviews.repository';
import { claimEvents, keyedAdds, registrationsOf } from './sync.repository';

type Scope = RequestScope<StaffActor>;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
export const PAGE_SIZE = 50;

export const deviceNotFound = (): AppError => new AppError('DEVICE_NOT_FOUND', 'Device not found');
const deviceRevoked = (): AppError => new AppError('DEVICE_REVOKED', 'Offline mode was switched off for this device');

const present = (d: DeviceRow): Device => ({
  id: d.id,
  userId: d.userId,
  userName: d.userName,
  facility: d.facility,
  label: d.label,
  status: d.revokedAt ? 'revoked' : 'active',
  createdAt: d.createdAt.toISOString(),
  lastContactAt: d.lastContactAt.toISOString(),
  revokedAt: d.revokedAt?.toISOString() ?? null,
});

/**
 * POST /api/devices: a device for this user and their facility, audited CREATE DEVICE. 403 OFFLINE_NEEDS_SECOND_FACTOR
 * for a user with no second factor (and for a system client, which has none), 403 REAUTH_REQUIRED when it was not
 * proven in this session within the last minutes.
 */
export async function enableDevice(c: Scope, label: string): Promise<EnabledDevice> {
  const proof = c.actor.client ? 'not-enrolled' : await secondFactorProof(c.db, c.actor.userId, c.meta.sessionHash, c.now);
  if (proof === 'not-enrolled')
    throw new AppError('OFFLINE_NEEDS_SECOND_FACTOR', 'Offline mode needs a second factor (an authenticator app or a passkey)');
  if (proof === 'stale') throw reauthRequired('second_factor');
  const id = randomUUID();
  const device = await inAuditedTransaction(c, async (ctx) => {
    await insertDevice(ctx.tx, { id, userId: c.actor.userId, facility: c.actor.facility, label, now: c.now });
    const row = (await selectDevice(ctx.tx, id))!;
    return ctx.audited(row, {
      action: 'CREATE',
      resourceType: 'DEVICE',
      resourceId: id,
      newValues: { deviceId: id, label, facility: c.actor.facility },
    });
  });
  return {
    device: present(device),
    expiryHours: OFFLINE_EXPIRY_HOURS,
    recordHours: OFFLINE_RECORD_HOURS,
    appointmentDays: OFFLINE_APPOINTMENT_DAYS,
  };
}

/** A page's cursor: its last device's creation time (milliseconds) and id, as the query's characters allow. */
const encodeDeviceCursor = (d: DeviceRow): string => `${d.createdAt.getTime()}_${d.id}`;
function decodeDeviceCursor(cursor: string): { createdAt: Date; id: string } {
  const m = /^(\d{1,15})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/.exec(cursor);
  if (!m) throw new AppError('INVALID_CURSOR', 'This cursor is not one the device list gave out');
  return { createdAt: new Date(Number(m[1])), id: m[2]! };
}

/** GET /api/devices: every device, newest first, PAGE_SIZE a page. */
export async function listDevices(c: Scope, cursor: string | undefined): Promise<DevicesPage> {
  const found = await selectDevices(c.db, cursor === undefined ? null : decodeDeviceCursor(cursor), PAGE_SIZE + 1);
  const page = found.slice(0, PAGE_SIZE);
  return { devices: page.map(present), nextCursor: found.length > PAGE_SIZE ? encodeDeviceCursor(page.at(-1)!) : null };
}

/**
 * POST /api/devices/{id}/revoke: the device's next contact answers `revoked` (the client wipes its store); audited
 * UPDATE DEVICE, the reason in the row's payload. A device revoked before answers as it is, with no second audit row.
 * 404 DEVICE_NOT_FOUND for an unknown one.
 */
export async function revokeDevice(c: Scope, id: string, reason: string): Promise<Device> {
  const existing = await selectDevice(c.db, id);
  if (!existing) throw deviceNotFound();
  if (existing.revokedAt) return present(existing);
  // Revoked by someone else between the read and the change: rolled back, answered as a repeated revocation.
  await unlessUnchanged(
    inAuditedTransaction(c, async (ctx) => {
      if (!(await revokeDeviceRow(ctx.tx, id, c.actor.userId, reason, c.now))) throw new Unchanged();
      return ctx.audited(null, {
        action: 'UPDATE',
        resourceType: 'DEVICE',
        resourceId: id,
        newValues: { deviceId: id, revoked: true, deviceUserId: existing.userId },
        ...(reason ? { payload: { newValues: { reason } } } : {}),
      });
    }),
  );
  return present((await selectDevice(c.db, id))!);
}

/** Thrown in a transaction that finds its change made already (by a concurrent request): rolled back, no audit row. */
class Unchanged extends Error {}
async function unlessUnchanged(work: Promise<unknown>): Promise<void> {
  try {
    await work;
  } catch (err) {
    if (!(err instanceof Unchanged)) throw err;
  }
}

/** The caller's own device, its last contact touched: 404 DEVICE_NOT_FOUND for an unknown one or another user's. */
async function ownDevice(c: Scope, id: string): Promise<{ revokedAt: Date | null }> {
  const found = await touchOwnDevice(c.db, id, c.actor.userId, c.now);
  if (!found) throw deviceNotFound();
  return found;
}

/** The caller's own device, not revoked: 403 DEVICE_REVOKED otherwise (the client wipes its store on it). */
export async function ownActiveDevice(c: Scope, id: string): Promise<void> {
  if ((await ownDevice(c, id)).revokedAt) throw deviceRevoked();
}

/** POST /api/devices/{id}/contact: the device is alive; `revoked` tells it to wipe everything it keeps. */
export async function contactDevice(c: Scope, id: string): Promise<DeviceContact> {
  const { revokedAt } = await ownDevice(c, id);
  return { status: revokedAt ? 'revoked' : 'active', serverTime: c.now.toISOString() };
}

const isoDay = (d: Date): string => d.toISOString().slice(0, 10);

/**
 * GET /api/devices/{id}/offline-set: the user's facility's appointments from today (a UTC day, as dates on the server)
 * for OFFLINE_APPOINTMENT_DAYS days, and the records this user holds a live grant for made in the last
 * OFFLINE_RECORD_HOURS hours; audited VIEW DEVICE naming the patients (`{ view: 'OFFLINE_SET', ... }`).
 */
export async function readOfflineSet(c: Scope, id: string): Promise<OfflineSet> {
  await ownActiveDevice(c, id);
  return inAuditedTransaction(c, async (ctx) => {
    const facility = c.actor.facility;
    const appointments = facility
      ? await facilityAppointments(
          ctx.tx,
          facility,
          isoDay(c.now),
          isoDay(new Date(c.now.getTime() + (OFFLINE_APPOINTMENT_DAYS - 1) * DAY_MS)),
        )
      : [];
    const patients = await grantedPatients(ctx.tx, c.actor.userId, c.now, new Date(c.now.getTime() - OFFLINE_RECORD_HOURS * HOUR_MS));
    return ctx.audited(
      { serverTime: c.now.toISOString(), appointments, patients },
      {
        action: 'VIEW',
        resourceType: 'DEVICE',
        resourceId: id,
        newValues: {
          view: 'OFFLINE_SET',
          deviceId: id,
          patientIds: patients.map((p) => p.id),
          appointmentPatientIds: [...new Set(appointments.map((a) => a.patientId))],
        },
      },
    );
  });
}

/**
 * POST /api/devices/{id}/discard: a queued write the user gave up on, audited DELETE DEVICE (its clientId, kind and
 * patient; the reason in the row's payload); nothing clinical is stored. The same discard again changes nothing.
 * 409 OFFLINE_WRITE_SAVED when the write was saved already (its row or patient is on the server).
 */
export async function discardWrite(c: Scope, id: string, input: DiscardInput): Promise<void> {
  await ownActiveDevice(c, id);
  const { clientId } = input;
  const [keyed, registered] = await Promise.all([
    keyedAdds(c.db, c.actor.userId, [clientId]),
    registrationsOf(c.db, c.actor.userId, [clientId]),
  ]);
  if (keyed.size > 0 || registered.size > 0)
    throw new AppError('OFFLINE_WRITE_SAVED', 'This write was saved already; it cannot be discarded');
  await unlessUnchanged(
    inAuditedTransaction(c, async (ctx) => {
      const who = { userId: c.actor.userId, deviceId: id, now: c.now };
      const event = { clientId, patientId: input.patientId ?? null, kind: input.kind ?? null, deviceTime: null };
      if ((await claimEvents(ctx.tx, who, 'discard', [event])).size === 0) throw new Unchanged();
      return ctx.audited(null, {
        action: 'DELETE',
        resourceType: 'DEVICE',
        resourceId: id,
        patientId: input.patientId ?? null,
        newValues: { discarded: clientId, kind: input.kind ?? null, deviceId: id },
        payload: { newValues: { reason: input.reason } },
      });
    }),
  );
}

/** GET /api/offline-reviews: the review tasks, newest first, PAGE_SIZE a page; audited VIEW OFFLINE_REVIEW. */
export async function listOfflineReviews(
  c: Scope,
  cursor: string | undefined,
): Promise<{ reviews: OfflineReview[]; nextCursor: string | null }> {
  const before = cursor === undefined ? null : decodeReviewCursor(cursor);
  return inAuditedTransaction(c, async (ctx) => {
    const found = await selectReviews(ctx.tx, before, PAGE_SIZE + 1);
    const reviews = found.slice(0, PAGE_SIZE);
    const nextCursor = found.length > PAGE_SIZE ? Buffer.from(`r.${reviews.at(-1)!.id}`).toString('base64url') : null;
    return ctx.audited(
      { reviews, nextCursor },
      {
        action: 'VIEW',
        resourceType: 'OFFLINE_REVIEW',
        newValues: { returned: reviews.length, patientIds: [...new Set(reviews.map((r) => r.patientId))] },
      },
    );
  });
}

function decodeReviewCursor(cursor: string): number {
  const m = /^r\.([1-9]\d{0,9})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m || Number(m[1]) > 2_147_483_647) throw new AppError('INVALID_CURSOR', 'This cursor is not one the review list gave out');
  return Number(m[1]);
}

/**
 * POST /api/offline-reviews/{id}/close: closed with the reviewer's note (in the audit row's payload), audited UPDATE
 * OFFLINE_REVIEW. One closed before answers as it is, with no second audit row; 404 OFFLINE_REVIEW_NOT_FOUND.
 */
export async function closeOfflineReview(c: Scope, id: number, note: string): Promise<OfflineReview> {
  const review = await selectReview(c.db, id);
  if (!review) throw new AppError('OFFLINE_REVIEW_NOT_FOUND', 'Review task not found');
  if (review.closedAt) return review;
  await unlessUnchanged(
    inAuditedTransaction(c, async (ctx) => {
      if (!(await closeReviewRow(ctx.tx, id, c.actor.userId, note, c.now))) throw new Unchanged();
      return ctx.audited(null, {
        action: 'UPDATE',
        resourceType: 'OFFLINE_REVIEW',
        resourceId: id,
        patientId: review.patientId,
        newValues: { closed: true, reason: review.reason, kind: review.kind, rowId: review.rowId },
        ...(note ? { payload: { newValues: { note } } } : {}),
      });
    }),
  );
  return (await selectReview(c.db, id))!;
}
