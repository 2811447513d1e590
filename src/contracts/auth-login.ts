// Staff sign-in (SPEC §5 Staff login, §7 POST /api/auth/login).
// zod/mini keeps the sign-in page's JavaScript small (DESIGN.md §10); the server validates with the same schema.
import * as z from 'zod/mini';

export const loginInput = z.strictObject({
  email: z
    .string({ error: 'validation:emailInvalid' })
    .check(z.trim(), z.maxLength(254, { error: 'validation:tooLong' }), z.regex(z.regexes.email, { error: 'validation:emailInvalid' })),
  password: z
    .string({ error: 'validation:passwordRequired' })
    .check(z.minLength(1, { error: 'validation:passwordRequired' }), z.maxLength(200, { error: 'validation:tooLong' })),
});
export type LoginInput = z.infer<typeof loginInput>;
