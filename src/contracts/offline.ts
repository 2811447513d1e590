// Offline clinic mode (issue 27, docs/decisions/061-offline-clinic-mode.md): the server side of a device that keeps
// working when the link drops. Shared by the server's routes and the client's offline code.
//
// - POST /api/devices: a staff member with a second factor proven in this session (re-authentication, as for
//   break-the-glass) switches offline mode on for this browser; the answer names the device and its limits.
// - GET /api/devices (users.approve): every device, newest first, paged; POST /api/devices/{id}/revoke (users.approve)
//   revokes one: its next contact answers `revoked` and the client wipes its store.
// - POST /api/devices/{id}/contact (the device's own user): the device is alive; answers `active` or `revoked`.
// - GET /api/devices/{id}/offline-set (the device's own user): what may be kept offline: the facility's appointments
//   from today for APPOINTMENT_DAYS days and the patients this user opened with a live grant in the last
//   RECORD_HOURS hours (no grant, no offline copy). The records themselves come through the delta read
//   (GET /api/patients/{id}/changes).
// - POST /api/devices/{id}/sync (the device's own user): up to SYNC_BATCH_MAX queued creates and up to
//   ACCESS_LOG_BATCH_MAX offline opens. Each create is idempotent by its clientId; each has its own outcome.
// - POST /api/devices/{id}/discard (the device's own user): a create the user gave up on, audited.
// - GET /api/offline-reviews, POST /api/offline-reviews/{id}/close (patients.merge): the review tasks sync opened.
import { z } from 'zod';
import { RECORD_KINDS, type RecordKind } from './kinds';
import { safeString, text } from './fields';
import { recordIdParams } from './record-api';

/** Local data is wiped after this long without contact with the server. */
export const OFFLINE_EXPIRY_HOURS = 72;
/** The records kept offline: those this user opened with a live grant within this many hours. */
export const OFFLINE_RECORD_HOURS = 8;
/** The facility's appointments kept offline: today and the next days, this many days in all. */
export const OFFLINE_APPOINTMENT_DAYS = 3;
export const SYNC_BATCH_MAX = 50;
export const ACCESS_LOG_BATCH_MAX = 200;
export const DEVICE_LABEL_MAX = 100;
export const DISCARD_REASON_MAX = 500;

const uuid = z
  .string({ error: 'validation:invalidId' })
  .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: 'validation:invalidId' });
const patientId = z
  .number({ error: 'validation:invalidId' })
  .int({ error: 'validation:invalidId' })
  .positive({ error: 'validation:invalidId' })
  .max(2_147_483_647, { error: 'validation:invalidId' });
/** A time the device's clock gave (ISO 8601 with an offset); the server stores it beside its own. */
const deviceTime = z.iso.datetime({ offset: true, error: 'validation:dateInvalid' });

export const deviceIdParams = z.object({ id: uuid });

/** POST /api/devices: a name the user gives this device ("Reception laptop"). */
export const enableDeviceInput = z.strictObject({ label: text(DEVICE_LABEL_MAX, 'validation:deviceLabelRequired') });
export type EnableDeviceInput = z.infer<typeof enableDeviceInput>;

export const DEVICE_STATUSES = ['active', 'revoked'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** A device as its user and the admin list see it. */
export const device = z.object({
  id: z.string(),
  userId: z.string(),
  userName: z.string(),
  facility: z.string().nullable(),
  label: z.string(),
  status: z.enum(DEVICE_STATUSES),
  createdAt: z.string(),
  lastContactAt: z.string(),
  revokedAt: z.string().nullable(),
});
export type Device = z.infer<typeof device>;

/** The answer to POST /api/devices: the device and the limits the client keeps to. */
export const enabledDevice = z.object({
  device,
  expiryHours: z.number().int(),
  recordHours: z.number().int(),
  appointmentDays: z.number().int(),
});
export type EnabledDevice = z.infer<typeof enabledDevice>;

/** GET /api/devices: `?cursor=` from the previous page's nextCursor. */
export const devicesQuery = z.object({
  cursor: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/)
    .optional(),
});
export const devicesPage = z.object({ devices: z.array(device), nextCursor: z.string().nullable() });
export type DevicesPage = z.infer<typeof devicesPage>;

export const revokeDeviceInput = z.strictObject({
  reason: safeString('validation:textInvalid').trim().max(DISCARD_REASON_MAX).default(''),
});

/** POST /api/devices/{id}/contact: `revoked` tells the client to wipe everything it keeps. */
export const deviceContact = z.object({ status: z.enum(DEVICE_STATUSES), serverTime: z.string() });
export type DeviceContact = z.infer<typeof deviceContact>;

/** One appointment of the facility in the offline set, with the patient it is for. */
export const offlineAppointment = z.object({
  patientId: z.number().int(),
  patientName: z.string(),
  idNumber: z.string(),
  appointmentId: z.number().int(),
  date: z.string(),
  time: z.string().nullable(),
  reason: z.string(),
  status: z.string(),
});
/** A patient whose record may be kept offline: opened by this user with a grant live until grantExpiresAt. */
export const offlinePatient = z.object({
  id: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  idNumber: z.string(),
  dateOfBirth: z.string().nullable(),
  sex: z.string(),
  grantExpiresAt: z.string(),
});
export const offlineSet = z.object({
  serverTime: z.string(),
  appointments: z.array(offlineAppointment),
  patients: z.array(offlinePatient),
});
export type OfflineSet = z.infer<typeof offlineSet>;
export type OfflinePatient = z.infer<typeof offlinePatient>;
export type OfflineAppointment = z.infer<typeof offlineAppointment>;

/**
 * A clinical entry created offline. `patient`: a patient id, or the clientId of a patient registered offline in this
 * or an earlier batch. `seenCursor`: the delta-read cursor of the record as the device last had it (null: never read).
 * `body`: the kind's add body, checked as an online add is.
 */
export const offlineEntry = z.strictObject({
  type: z.literal('entry'),
  clientId: uuid,
  deviceTime,
  kind: z.enum(RECORD_KINDS as [RecordKind, ...RecordKind[]], { error: 'validation:invalidChoice' }),
  patient: z.union([z.strictObject({ id: patientId }), z.strictObject({ clientId: uuid })]),
  seenCursor: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/)
    .nullable(),
  body: z.record(z.string(), z.unknown()),
});
/**
 * A patient registered offline: provisional until the matcher has seen it on sync. `body`: the add-patient body
 * (addPatientInput), checked per write on the server, so that one refused registration is one `needs_attention`
 * and never holds back the rest of the queue.
 */
export const offlineRegistration = z.strictObject({
  type: z.literal('patient'),
  clientId: uuid,
  deviceTime,
  body: z.record(z.string(), z.unknown()),
});
export const offlineWrite = z.discriminatedUnion('type', [offlineEntry, offlineRegistration], { error: 'validation:invalidChoice' });
export type OfflineWrite = z.input<typeof offlineWrite>;
export type OfflineEntry = z.input<typeof offlineEntry>;
export type OfflineRegistration = z.input<typeof offlineRegistration>;

/** One offline open of a record, for the patient's access history. */
export const offlineOpen = z.strictObject({ clientId: uuid, patientId, deviceTime });
export type OfflineOpen = z.infer<typeof offlineOpen>;

export const syncInput = z.strictObject({
  writes: z.array(offlineWrite).max(SYNC_BATCH_MAX, { error: 'validation:tooMany' }),
  accessLog: z.array(offlineOpen).max(ACCESS_LOG_BATCH_MAX, { error: 'validation:tooMany' }).default([]),
});
export type SyncInput = z.input<typeof syncInput>;

/**
 * What became of one write:
 * - `saved`: stored (or stored before: the same clientId); `patientId` names the record it went to (the survivor
 *   when the patient was joined meanwhile), `id` the new row or patient;
 * - `saved_for_review`: stored, and a review task opened (`reviewId`): the record changed since the device saw it,
 *   or the registered patient looks like one already known (the pair waits in the duplicates queue);
 * - `waiting`: its patient was registered offline and is not stored yet (send it again after that patient);
 * - `needs_attention`: refused with `code` (an error code, translated by the client) and, for a refused body,
 *   `issues`; the client keeps it until the user retries or discards it.
 */
export const SYNC_OUTCOMES = ['saved', 'saved_for_review', 'waiting', 'needs_attention'] as const;
export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];
export const syncResult = z.object({
  clientId: z.string(),
  outcome: z.enum(SYNC_OUTCOMES),
  patientId: z.number().int().nullable(),
  id: z.number().int().nullable(),
  reviewId: z.number().int().nullable(),
  code: z.string().nullable(),
  /** For a body refused by the kind's checks (code VALIDATION_FAILED): which fields, with i18n keys. */
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type SyncResult = z.infer<typeof syncResult>;
export const syncResponse = z.object({
  serverTime: z.string(),
  results: z.array(syncResult),
  /** The clientIds of the offline opens now in the audit trail (again: already there). */
  accessLogSaved: z.array(z.string()),
  /**
   * The clientIds of offline opens refused: no grant for that patient covered their device time (or it is outside the
   * last OFFLINE_EXPIRY_HOURS). Not in the patient's access history; kept as a security event; the client drops them.
   */
  accessLogRefused: z.array(z.string()).default([]),
});
export type SyncResponse = z.infer<typeof syncResponse>;

/** POST /api/devices/{id}/discard: a write the user gave up on, with why. */
export const discardInput = z.strictObject({
  clientId: uuid,
  reason: text(DISCARD_REASON_MAX, 'validation:discardReasonRequired'),
  /** What the write was, for the audit row (the server never stored it): the kind, or 'patient' for a registration. */
  kind: z.enum(['patient', ...RECORD_KINDS] as [string, ...string[]], { error: 'validation:invalidChoice' }).optional(),
  /** The patient it was for, when it named one by id. */
  patientId: patientId.optional(),
});
export type DiscardInput = z.infer<typeof discardInput>;

/**
 * Why a review task was opened: the record changed since the device saw it; the patient registered offline looks like
 * one already known; the entry was stored over the kind's warnings, which nobody could confirm offline.
 */
export const OFFLINE_REVIEW_REASONS = ['RECORD_CHANGED_SINCE_SEEN', 'POSSIBLE_DUPLICATE_PATIENT', 'WARNINGS_NOT_CONFIRMED'] as const;
export type OfflineReviewReason = (typeof OFFLINE_REVIEW_REASONS)[number];
export const offlineReview = z.object({
  id: z.number().int(),
  reason: z.enum(OFFLINE_REVIEW_REASONS),
  patientId: z.number().int(),
  kind: z.string().nullable(),
  rowId: z.number().int().nullable(),
  deviceId: z.string(),
  userName: z.string(),
  deviceTime: z.string(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
  /** The codes of the kind's warnings the entry was stored over (contracts/record-warnings), none confirmed. */
  warnings: z.array(z.string()).default([]),
});
export type OfflineReview = z.infer<typeof offlineReview>;
/** POST /api/offline-reviews/{id}/close: a review task's id. */
export const offlineReviewIdParams = recordIdParams;
/** GET /api/offline-reviews: newest first; `?cursor=` from the previous page's nextCursor. */
export const offlineReviewsQuery = devicesQuery;
export const offlineReviewsPage = z.object({ reviews: z.array(offlineReview), nextCursor: z.string().nullable() });
export const closeReviewInput = z.strictObject({ note: safeString('validation:textInvalid').trim().max(DISCARD_REASON_MAX).default('') });
