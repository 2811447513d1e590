// The staff second factor's API (decision 024): the second sign-in step, enrolment, switch-off, re-authentication
// and the per-role policy.
import { queryOptions, useMutation, useQueryClient, type UseMutationResult } from '@tanstack/react-query';
import type { LoginResult } from '../../../../contracts/auth';
import type { MfaPolicy, MfaRolePolicy, MfaStatus, TotpConfirmed, TotpEnrolment, TotpUser } from '../../../../contracts/mfa';
import { apiJson } from '../../../lib/api-client';
import { retryUnlessRefused } from '../../../lib/api-error';
import { passkeyAssertion } from '../../../lib/passkeys';

export const MFA_STATUS_KEY = '/api/auth/mfa';
export const MFA_POLICY_KEY = '/api/admin/mfa-policy';

export const mfaStatusQueryOptions = queryOptions<MfaStatus>({ queryKey: [MFA_STATUS_KEY], retry: retryUnlessRefused });
export const TOTP_USERS_KEY = '/api/admin/second-factors';
export const totpUsersQueryOptions = queryOptions<TotpUser[]>({ queryKey: [TOTP_USERS_KEY], retry: retryUnlessRefused });
export const mfaPolicyQueryOptions = queryOptions<MfaRolePolicy[]>({ queryKey: [MFA_POLICY_KEY], retry: retryUnlessRefused });

export function useSecondFactorLogin(): UseMutationResult<LoginResult, Error, string> {
  return useMutation({
    mutationFn: (code: string) => apiJson<LoginResult>('POST', '/api/auth/login/second-factor', { code }),
    retry: false,
  });
}

export function useStartEnrolment(): UseMutationResult<TotpEnrolment, Error, void> {
  return useMutation({ mutationFn: () => apiJson<TotpEnrolment>('POST', '/api/auth/mfa/totp/enrol'), retry: false });
}

export function useConfirmEnrolment(): UseMutationResult<TotpConfirmed, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiJson<TotpConfirmed>('POST', '/api/auth/mfa/totp/confirm', { code }),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MFA_STATUS_KEY] }),
  });
}

export function useDisableTotp(): UseMutationResult<unknown, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiJson<unknown>('POST', '/api/auth/mfa/totp/disable', { code }),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MFA_STATUS_KEY] }),
  });
}

export function useReauth(): UseMutationResult<unknown, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => apiJson<unknown>('POST', '/api/auth/reauth', { code }),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MFA_STATUS_KEY] }),
  });
}

export function useSetRolePolicy(): UseMutationResult<MfaRolePolicy[], Error, { roleId: number; policy: MfaPolicy }> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ roleId, policy }) => apiJson<MfaRolePolicy[]>('PUT', `/api/admin/mfa-policy/${roleId}`, { policy }),
    retry: false,
    onSuccess: (rows) => queryClient.setQueryData([MFA_POLICY_KEY], rows),
  });
}

/** After the password: a passkey instead of the code (decision 026). */
export function useSecondFactorPasskey(): UseMutationResult<LoginResult, Error, void> {
  return useMutation({
    mutationFn: async () =>
      apiJson<LoginResult>('POST', '/api/auth/login/second-factor/passkey', { response: await passkeyAssertion('second_factor') }),
    retry: false,
  });
}

/** Before break-the-glass: a passkey instead of the code (decision 026). */
export function useReauthPasskey(): UseMutationResult<unknown, Error, void> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => apiJson<unknown>('POST', '/api/auth/reauth/passkey', { response: await passkeyAssertion('reauth') }),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MFA_STATUS_KEY] }),
  });
}

/** Manage Users: an administrator resets a user's lost authenticator app. */
/** An administrator's reset of every second factor of a user, passkeys included (issue 21 item 13). */
export function useResetSecondFactors(): UseMutationResult<unknown, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => apiJson<unknown>('DELETE', `/api/admin/users/${encodeURIComponent(userId)}/second-factors`),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [TOTP_USERS_KEY] }),
  });
}

/** Before grants past the hourly volume, for a user without a second factor: the password (issue 21 item 8). */
export function useReauthPassword(): UseMutationResult<unknown, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (password: string) => apiJson<unknown>('POST', '/api/auth/reauth/password', { password }),
    retry: false,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [MFA_STATUS_KEY] }),
  });
}
