// The patient portal (SPEC §2 Patient portal, §3, §7; DESIGN.md §4, §6): the sign-in result, the patient's own
// record as the portal reads it, and the history of who opened that record.
import { z } from 'zod';
import { patientDetails } from './patients';
import { REVIEW_VERDICTS } from './privacy-review';
import { KIND_CONTRACTS, PORTAL_KINDS, type PortalKind } from './kinds';

export { patientActivateInput, type PatientActivateInput } from './portal-activate';
export {
  patientLoginInput,
  PATIENT_ACTIVATION_FAILED_MESSAGE,
  PATIENT_LOGIN_FAILED_MESSAGE,
  PORTAL_FROM_STAFF_SESSION_MESSAGE,
  PATIENT_LOGIN_SUCCESS_MESSAGE,
  type PatientLoginInput,
} from './portal-login';

/** POST /api/auth/patient-login. */
export const patientLoginResult = z.object({
  message: z.string(),
  patient: z.object({ id: z.number().int(), firstName: z.string() }),
});
export type PatientLoginResult = z.infer<typeof patientLoginResult>;

/** POST /api/patient-portal/reauth (issue 21 item 2). */
export const patientReauthResult = z.object({ message: z.string(), verifiedAt: z.string() });
export type PatientReauthResult = z.infer<typeof patientReauthResult>;

/**
 * A portal activation code as the clinic receives it, once (decision 016): POST /api/admin/patients answers it as
 * `portalActivation`, POST /api/patients/{id}/portal-activation answers it alone. Only its hash is stored.
 */
export const portalActivation = z.object({
  /** XXXX-XXXX. */
  code: z.string(),
  /** ISO 8601 UTC: 72 hours after issue. */
  expiresAt: z.string(),
  /**
   * The portal already has a PIN (decision 031): the code works only with the patient's current PIN, or after a
   * second staff member confirms the reset (POST /api/patients/{id}/portal-reset/confirm).
   */
  needsCurrentPin: z.boolean(),
});
export type PortalActivation = z.infer<typeof portalActivation>;

const staffName = z.object({ id: z.string(), name: z.string() });

/** GET /api/patients/{id}/portal-status (decision 031): what the desk needs to know, never the code. */
export const portalStatus = z.object({
  /** The patient has set a PIN. */
  active: z.boolean(),
  liveCode: z
    .object({
      issuedAt: z.string(),
      expiresAt: z.string(),
      issuedBy: staffName.nullable(),
      needsCurrentPin: z.boolean(),
      resetConfirmedBy: staffName.nullable(),
      resetConfirmedAt: z.string().nullable(),
    })
    .nullable(),
  /** The caller may confirm the reset: a live code needs the current PIN, is unconfirmed, and someone else issued it. */
  canConfirmReset: z.boolean(),
});
export type PortalStatus = z.infer<typeof portalStatus>;

/** GET /api/patient-portal/notices (decision 031): a reset confirmed by two staff members, until dismissed. */
export const portalNotices = z.object({
  reset: z.object({ at: z.string(), issuedBy: z.string(), confirmedBy: z.string() }).nullable(),
});
export type PortalNotices = z.infer<typeof portalNotices>;

/** How long an activation code is valid (decision 016). */
export const ACTIVATION_CODE_TTL_HOURS = 72;

/** The patient's personal details. idNumber is the NC number; the portal names it ncNumber (SPEC §3), so both are sent. */
export const portalPatient = patientDetails.extend({ ncNumber: z.string() });
export type PortalPatient = z.infer<typeof portalPatient>;

/** GET /api/patient-portal/me. Each list is newest first; each kind says what the portal shows of it (contracts/kinds). */
export const portalRecord = z.object({
  patient: portalPatient,
  medicalRecords: z.object(
    Object.fromEntries(PORTAL_KINDS.map((k) => [k, z.array(KIND_CONTRACTS[k].portal!.row)])) as {
      [K in PortalKind]: z.ZodArray<NonNullable<(typeof KIND_CONTRACTS)[K]['portal']>['row']>;
    },
  ),
});
export type PortalRecord = z.infer<typeof portalRecord>;

// ---- Access history: who opened this record (DESIGN.md §6). ----

export const ACCESS_LOG_PAGE_SIZE_DEFAULT = 10;
export const ACCESS_LOG_PAGE_SIZE_MAX = 100;

const positiveInt = (max: number) =>
  z.coerce
    .number({ error: 'validation:invalidNumber' })
    .int({ error: 'validation:invalidNumber' })
    .min(1, { error: 'validation:invalidNumber' })
    .max(max, { error: 'validation:invalidNumber' });

/** GET /api/patient-portal/access-log?page=&pageSize= (page from 1). */
export const accessLogQuery = z.object({
  page: positiveInt(100_000).default(1),
  pageSize: positiveInt(ACCESS_LOG_PAGE_SIZE_MAX).default(ACCESS_LOG_PAGE_SIZE_DEFAULT),
});
export type AccessLogQuery = z.output<typeof accessLogQuery>;

/**
 * How the record was reached: opened with the patient's consent, opened without it for a stated reason
 * (break-the-glass), or returned by a search; or a portal activation code issued for it (decision 016), so a desk
 * that issues itself a code is seen by the patient.
 */
export const ACCESS_KINDS = ['CONSENT', 'BREAK_GLASS', 'SEARCH', 'ACTIVATION_CODE', 'PORTAL_ACTIVATED', 'PORTAL_RESET_CONFIRMED'] as const;
export type AccessKind = (typeof ACCESS_KINDS)[number];

export const accessLogItem = z.object({
  id: z.number().int(),
  kind: z.enum(ACCESS_KINDS),
  /** ISO 8601 UTC. */
  at: z.string(),
  /** The staff member's name as recorded at the time. */
  name: z.string(),
  /** A short stable reference of the staff account (`S-` and 8 characters), whatever name it bore (issue 21 item 10). */
  staffId: z.string(),
  /** Their role (name for translation, display name as fallback), when the account still exists. */
  role: z.object({ name: z.string(), displayName: z.string() }).nullable(),
  facility: z.string().nullable(),
  /** The reason stated for a break-the-glass access; null otherwise. */
  reason: z.string().nullable(),
  /** A break-the-glass access's privacy-review verdict (null while unreviewed, and for other kinds). */
  review: z.object({ verdict: z.enum(REVIEW_VERDICTS), at: z.string() }).nullable(),
});
export type AccessLogItem = z.infer<typeof accessLogItem>;

export const accessLogPage = z.object({
  items: z.array(accessLogItem),
  page: z.number().int(),
  pageSize: z.number().int(),
  total: z.number().int(),
});
export type AccessLogPage = z.infer<typeof accessLogPage>;
