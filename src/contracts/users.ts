// My Profile and Administration: Manage Users (SPEC §2, §3, §5, §7).
import { z } from 'zod';
import { optionalPhone, roleSummary } from './auth';
import { email, text } from './fields';

/** PATCH /api/users/{id}: exactly these fields; anything else (roleId, isActive, ...) is refused with 400. */
export const profileUpdateInput = z.strictObject({
  firstName: text(100, 'validation:firstNameRequired'),
  lastName: text(100, 'validation:lastNameRequired'),
  email: email('validation:emailInvalidShort'),
  phoneNumber: optionalPhone,
  department: text(100, 'validation:departmentRequired'),
  facility: text(200, 'validation:facilityRequired'),
  /** Optional home address; left out: unchanged; blank: removed (the privacy review compares it with patients'). */
  address: z
    .string()
    .trim()
    .max(300, { error: 'validation:tooLong' })
    .nullish()
    .transform((v) => (v === undefined ? undefined : v || null)),
});
export type ProfileUpdateInput = z.infer<typeof profileUpdateInput>;

export const userIdParams = z.object({ id: z.string().min(1).max(64) });

/** SPEC §3 pending-user list item. */
export const pendingUser = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  department: z.string().nullable(),
  facility: z.string().nullable(),
  role: roleSummary.nullable(),
  createdAt: z.string(),
});
export const pendingUsers = z.array(pendingUser);
export type PendingUser = z.infer<typeof pendingUser>;

export const activeUser = pendingUser.extend({
  roleId: z.number().nullable(),
  phoneNumber: z.string().nullable(),
  activatedAt: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
});
export const activeUsers = z.array(activeUser);
export type ActiveUser = z.infer<typeof activeUser>;

export const activeUsersQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(500),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

export const userStats = z.object({
  total: z.number(),
  /** Users per account status; 'active' and 'pending' are always present. */
  byStatus: z.record(z.string(), z.number()),
  /** Every role (zero counts included), with its users in total and its active users. */
  byRole: z.array(z.object({ roleId: z.number(), name: z.string(), displayName: z.string(), total: z.number(), active: z.number() })),
});
export type UserStats = z.infer<typeof userStats>;

export const approveResult = z.object({ message: z.string(), user: activeUser });
export type ApproveResult = z.infer<typeof approveResult>;

/** GET /api/admin/name-changes (issue 21 item 10): a staff member's own change of name, waiting for approval. */
export const nameChange = z.object({
  id: z.number().int(),
  userId: z.string(),
  email: z.string(),
  role: z.object({ name: z.string(), displayName: z.string() }).nullable(),
  facility: z.string().nullable(),
  from: z.object({ firstName: z.string(), lastName: z.string() }),
  to: z.object({ firstName: z.string(), lastName: z.string() }),
  requestedAt: z.string(),
  /** How many other active staff already bear the requested name (a warning for the approver). */
  sameNameAs: z.number().int(),
});
export const nameChanges = z.array(nameChange);
export type NameChange = z.infer<typeof nameChange>;

/** /api/admin/name-changes/{id}/approve and /reject. */
export const nameChangeIdParams = z.object({
  id: z
    .string()
    .regex(/^[1-9]\d{0,9}$/, { error: 'validation:invalidId' })
    .transform(Number),
});
