// Staff second factor (issue 12 items 2-4, decision 024): TOTP enrolment, recovery codes, the second sign-in step,
// re-authentication before break-the-glass, and the per-role policy.
import { z } from 'zod';
import { currentUser } from './auth';

/** 'optional': may switch it off; 'once_enrolled': kept once enrolled; 'required': must enrol at next sign-in. */
export const MFA_POLICIES = ['optional', 'once_enrolled', 'required'] as const;
export type MfaPolicy = (typeof MFA_POLICIES)[number];

/** Minutes a second factor proven in this session counts as fresh for a break-the-glass grant. */
export const REAUTH_FRESH_MINUTES = 10;
export const RECOVERY_CODE_COUNT = 10;

/** A 6-digit TOTP code or a recovery code (xxxxx-xxxxx, letters and digits); spaces are ignored. */
const CODE_PATTERN = /^(?:\d{6}|[a-z0-9]{5}-?[a-z0-9]{5})$/;
export const secondFactorCode = z
  .string({ error: 'validation:secondFactorCode' })
  .max(32, { error: 'validation:secondFactorCode' })
  .transform((v) => v.replace(/\s+/g, '').toLowerCase())
  .refine((v) => CODE_PATTERN.test(v), { error: 'validation:secondFactorCode' });

/** Body of POST /api/auth/login/second-factor, /api/auth/mfa/totp/confirm, /disable and /api/auth/reauth. */
export const secondFactorInput = z.strictObject({ code: secondFactorCode });
export type SecondFactorInput = z.input<typeof secondFactorInput>;

/** POST /api/auth/login when the password is right but a second factor (or an enrolment) comes first. */
export const SECOND_FACTOR_METHODS = ['totp', 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];
/** `methods`: what the 'verify' step accepts (an authenticator code, a passkey: decision 026). */
export const loginPending = z.object({
  message: z.string(),
  secondFactor: z.enum(['verify', 'enrol']),
  methods: z.array(z.enum(SECOND_FACTOR_METHODS)).optional(),
});
export type LoginPending = z.infer<typeof loginPending>;

/** POST /api/auth/mfa/totp/enrol: shown once; the secret is never returned again after confirmation. */
export const totpEnrolment = z.object({ secret: z.string(), otpauthUri: z.string(), qrSvg: z.string() });
export type TotpEnrolment = z.infer<typeof totpEnrolment>;

/** POST /api/auth/mfa/totp/confirm: the recovery codes, shown once; with the user when it also signed in. */
export const totpConfirmed = z.object({ message: z.string(), recoveryCodes: z.array(z.string()), user: currentUser.optional() });
export type TotpConfirmed = z.infer<typeof totpConfirmed>;

/** GET /api/auth/mfa: the signed-in user's second factor. */
export const mfaStatus = z.object({
  totpEnabled: z.boolean(),
  enabledAt: z.string().nullable(),
  recoveryCodesLeft: z.number(),
  /** How many passkeys the user has (decision 026); a passkey is a second factor too. */
  passkeys: z.number(),
  policy: z.enum(MFA_POLICIES),
  /** A second factor (code or passkey) proven in this session within REAUTH_FRESH_MINUTES. */
  reauthFresh: z.boolean(),
});
export type MfaStatus = z.infer<typeof mfaStatus>;

/** POST /api/auth/reauth/password (users without a second factor; issue 21 item 8): the sign-in password rule. */
export const passwordReauthInput = z.strictObject({
  password: z
    .string({ error: 'validation:passwordRequired' })
    .min(1, { error: 'validation:passwordRequired' })
    .max(200, { error: 'validation:tooLong' }),
});
export type PasswordReauthInput = z.input<typeof passwordReauthInput>;

/** POST /api/auth/reauth (and /passkey, /password): when the proof was made. */
export const reauthResult = z.object({ message: z.string(), verifiedAt: z.string() });

/** GET /api/admin/mfa-policy: every role with its policy. */
export const mfaRolePolicy = z.object({ roleId: z.number(), name: z.string(), displayName: z.string(), policy: z.enum(MFA_POLICIES) });
export const mfaRolePolicies = z.array(mfaRolePolicy);
export type MfaRolePolicy = z.infer<typeof mfaRolePolicy>;

/** PUT /api/admin/mfa-policy/{roleId}. */
export const mfaPolicyUpdate = z.strictObject({ policy: z.enum(MFA_POLICIES, { error: 'validation:invalidValue' }) });
export const mfaPolicyParams = z.object({
  roleId: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, { error: 'validation:invalidId' })
    .transform(Number),
});

/**
 * GET /api/admin/second-factors: active staff with a second factor (an authenticator app or a passkey; issue 21 item
 * 13), for an administrator's reset (decision 024). `enabledAt`: the earliest of them.
 */
export const totpUser = z.object({
  userId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  roleId: z.number().nullable(),
  enabledAt: z.string(),
  totp: z.boolean(),
  passkeys: z.number(),
});
export const totpUsers = z.array(totpUser);
export type TotpUser = z.infer<typeof totpUser>;
