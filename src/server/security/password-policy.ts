// Staff password rules beyond SPEC's length (issue 21 item 14, decision 033): a password that is on the shipped list
// of common and breached passwords (common-passwords/SOURCE.md), or that contains the user's name or e-mail, is
// refused. The length rule stays the schema's (SPEC §5: 'Password must be at least 8 characters').
import { readFileSync } from 'node:fs';
import { AppError } from '../errors/app-error';

/** Name parts and e-mail parts shorter than this are not looked for (a two-letter name is in too many words). */
const PERSONAL_MIN = 3;

let common: Set<string> | undefined;
/** The shipped list, read once (about 49,000 entries, lower case). */
export function commonPasswords(): Set<string> {
  common ??= new Set(
    readFileSync(new URL('./common-passwords/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line.length > 0),
  );
  return common;
}

export interface PasswordOwner {
  firstName: string;
  lastName: string;
  email: string;
}

export type PasswordProblem = 'common' | 'personal';

/** The words of the owner a password may not contain: each name, the e-mail, its local part and that part's pieces. */
function personalWords(owner: PasswordOwner): string[] {
  const email = owner.email.trim().toLowerCase();
  const local = email.split('@')[0] ?? '';
  const names = `${owner.firstName} ${owner.lastName}`.toLowerCase().split(/[\s'-]+/);
  const pieces = local.split(/[._+-]+/);
  return [email, local, ...names, ...pieces].filter((w) => w.length >= PERSONAL_MIN);
}

/** Why the password is refused, or null. Case does not matter; spaces around it neither. */
export function passwordProblem(password: string, owner: PasswordOwner): PasswordProblem | null {
  const p = password.trim().toLowerCase();
  if (commonPasswords().has(p) || commonPasswords().has(p.replace(/\s+/g, ''))) return 'common';
  if (personalWords(owner).some((w) => p.includes(w))) return 'personal';
  return null;
}

/** 400 PASSWORD_TOO_COMMON or PASSWORD_PERSONAL (with the password field's issue) when the password is refused. */
export function assertAcceptablePassword(password: string, owner: PasswordOwner): void {
  const problem = passwordProblem(password, owner);
  if (problem === 'common') {
    throw new AppError('PASSWORD_TOO_COMMON', 'This password is too common: choose another', {
      issues: [{ path: 'password', message: 'validation:passwordCommon' }],
    });
  }
  if (problem === 'personal') {
    throw new AppError('PASSWORD_PERSONAL', 'The password may not contain your name or e-mail address', {
      issues: [{ path: 'password', message: 'validation:passwordPersonal' }],
    });
  }
}
