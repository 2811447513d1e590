import { queryOptions } from '@tanstack/react-query';
import type { CurrentUser } from '../../../../contracts/auth';
import { getQueryFn } from '../../../lib/api-client';
import { currentUserKey } from '../../../lib/query-keys';

export type { CurrentUser };

/** A 401 means nobody is signed in: the query resolves to null. No retry (SPEC §7). */
export const currentUserQueryOptions = queryOptions<CurrentUser | null>({
  queryKey: currentUserKey,
  queryFn: getQueryFn<CurrentUser | null>({ on401: 'returnNull' }),
  retry: false,
});

export const hasPermission = (user: CurrentUser | null | undefined, permission: string): boolean =>
  Boolean(user?.permissions.includes(permission));
