import type { z } from 'zod';
import { validationFailed } from '../../errors/app-error';

/** Parses service input with its contract schema; a failure is a 400 naming the fields, like a route's. */
export function parseOr400<T extends z.ZodType>(schema: T, input: unknown, message: string): z.output<T> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  throw validationFailed(issues, message);
}
