// First-time setup (SPEC §2, §5, §7).
import { z } from 'zod';
import { email, newPassword, personName, text } from './fields';

export const setupAdminInput = z
  .strictObject({
    firstName: personName('validation:firstNameMin'),
    lastName: personName('validation:lastNameMin'),
    email: email(),
    password: newPassword,
    confirmPassword: z.string({ error: 'validation:passwordsMismatch' }).max(200, { error: 'validation:tooLong' }),
    facility: text(200, 'validation:facilityRequired'),
    department: text(100, 'validation:departmentRequired'),
  })
  .refine((v) => v.password === v.confirmPassword, {
    error: 'validation:passwordsMismatch',
    path: ['confirmPassword'],
  });
export type SetupAdminInput = z.infer<typeof setupAdminInput>;

export const setupStatus = z.object({ needsSetup: z.boolean() });
export type SetupStatus = z.infer<typeof setupStatus>;

export const setupAdminResult = z.object({ message: z.string(), userId: z.string() });
export type SetupAdminResult = z.infer<typeof setupAdminResult>;
