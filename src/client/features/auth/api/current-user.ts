import { queryOptions } from '@tanstack/react-query';
import { getQueryFn } from '../../../lib/api-client';

/** The signed-in staff user as GET /api/auth/user returns it. */
export interface CurrentUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  phoneNumber: string | null;
  department: string | null;
  facility: string | null;
  roleId: number | null;
  role: { name: string; displayName: string } | null;
  permissions: string[];
  profileImageUrl?: string | null;
}

/** A 401 means nobody is signed in: the query resolves to null. No retry (SPEC §7). */
export const currentUserQueryOptions = queryOptions<CurrentUser | null>({
  queryKey: ['/api/auth/user'],
  queryFn: getQueryFn<CurrentUser | null>({ on401: 'returnNull' }),
  retry: false,
});
