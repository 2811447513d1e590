// Display rules of SPEC §3: initials from first and last name (fallback U); name, else e-mail, else 'User'.
export interface NamedUser {
  firstName?: string | null;
  lastName?: string | null;
  email?: string | null;
}

export function initialsOf(user: NamedUser | null | undefined): string {
  const first = user?.firstName?.trim()[0] ?? '';
  const last = user?.lastName?.trim()[0] ?? '';
  return (first + last).toUpperCase() || 'U';
}

export function displayNameOf(user: NamedUser | null | undefined): string {
  const name = [user?.firstName?.trim(), user?.lastName?.trim()].filter(Boolean).join(' ');
  return name || user?.email || 'User';
}
