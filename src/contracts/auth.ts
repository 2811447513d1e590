// Staff sign-in, registration and the signed-in user (SPEC §3, §5, §7; DESIGN.md §4-5).
import { z } from 'zod';
import { REGISTRATION_DEPARTMENTS, ROLE_IDS } from './constants';
import { email, newPassword, personName, text } from './fields';

/** Roles a person may ask for at registration, in SPEC §6 order. Never 1 (System Administrator). */
export const REGISTRATION_ROLE_IDS = [
  ROLE_IDS.admin,
  ROLE_IDS.doctor,
  ROLE_IDS.nurse,
  ROLE_IDS.receptionist,
  ROLE_IDS.auditor,
  ROLE_IDS.healthInformationOfficer,
  ROLE_IDS.paramedic,
  ROLE_IDS.intermediateLifeSupport,
  ROLE_IDS.basicLifeSupport,
] as const;
export type RegistrationRoleId = (typeof REGISTRATION_ROLE_IDS)[number];

/** Optional phone number: blank or null means none. */
export const optionalPhone = z
  .string({ error: 'validation:tooLong' })
  .trim()
  .max(32, { error: 'validation:tooLong' })
  .nullish()
  .transform((v) => (v ? v : null));

// The sign-in schema lives in auth-login.ts (zod/mini, for the small first page); both sides use it.
export { loginInput, type LoginInput } from './auth-login';

/** What the server accepts (SPEC §7: confirmPassword is dropped by the client). */
export const registerInput = z.strictObject({
  firstName: personName('validation:firstNameMin'),
  lastName: personName('validation:lastNameMin'),
  email: email(),
  password: newPassword,
  department: z.enum(REGISTRATION_DEPARTMENTS, { error: 'validation:departmentSelect' }),
  facility: text(200, 'validation:facilityRequired'),
  phoneNumber: optionalPhone,
  roleId: z
    .number({ error: 'validation:roleSelect' })
    .int({ error: 'validation:roleSelect' })
    .refine((id): id is RegistrationRoleId => (REGISTRATION_ROLE_IDS as readonly number[]).includes(id), {
      error: 'validation:roleSelect',
    }),
});
export type RegisterInput = z.infer<typeof registerInput>;

/** The registration form: the same rules plus the password confirmation. */
export const registerForm = registerInput
  .extend({ confirmPassword: z.string({ error: 'validation:passwordsMismatch' }).max(200, { error: 'validation:tooLong' }) })
  .refine((v) => v.password === v.confirmPassword, { error: 'validation:passwordsMismatch', path: ['confirmPassword'] });
export type RegisterForm = z.input<typeof registerForm>;

export const roleSummary = z.object({ name: z.string(), displayName: z.string() });
export type RoleSummary = z.infer<typeof roleSummary>;

/** GET /api/roles: the registration roles. */
export const registrationRole = z.object({
  id: z.number(),
  name: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
});
export const registrationRoles = z.array(registrationRole);
export type RegistrationRole = z.infer<typeof registrationRole>;

/** GET /api/auth/user: the signed-in staff user. Timestamps are ISO 8601 UTC. */
export const currentUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phoneNumber: z.string().nullable(),
  department: z.string().nullable(),
  facility: z.string().nullable(),
  /** Home address (optional): the privacy review flags accesses to patients living there. */
  address: z.string().nullable(),
  roleId: z.number().nullable(),
  role: roleSummary.nullable(),
  isActive: z.boolean(),
  accountStatus: z.string(),
  profileImageUrl: z.string().nullable(),
  licenseNumber: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
  /** Permission names (DESIGN.md §4), sorted. The client hides what is not listed; the server still checks. */
  permissions: z.array(z.string()),
  /** A change of name the user asked for, waiting for an administrator's approval (issue 21 item 10). */
  pendingName: z.object({ firstName: z.string(), lastName: z.string(), requestedAt: z.string() }).nullable().optional(),
});
export type CurrentUser = z.infer<typeof currentUser>;

export const loginResult = z.object({ message: z.string(), user: currentUser });
export type LoginResult = z.infer<typeof loginResult>;

export const messageResult = z.object({ message: z.string() });
export type MessageResult = z.infer<typeof messageResult>;

export const REGISTRATION_SUCCESS_MESSAGE = 'Registration successful. Please contact an administrator for activation.';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid credentials';
export const ACCOUNT_LOCKED_MESSAGE = 'Too many failed sign-in attempts. Try again in 15 minutes.';
export const IP_THROTTLED_MESSAGE = 'Too many sign-in attempts from this network. Try again in 15 minutes.';
