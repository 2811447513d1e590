// Passkeys in the browser (decision 026): the server's options go to navigator.credentials through
// @simplewebauthn/browser, loaded on first use so the sign-in page stays small; the answer goes back to the server.
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { TFunction } from './translator';
import { apiJson } from './api-client';
import { asApiError } from './api-error';
import { errorText } from './error-text';

export type PasskeyPurpose = 'sign_in' | 'second_factor' | 'reauth';

/** Whether this browser can use passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** Asks the server for a challenge of this purpose and lets the browser sign it with a passkey. */
export async function passkeyAssertion(purpose: PasskeyPurpose): Promise<unknown> {
  const options = await apiJson<PublicKeyCredentialRequestOptionsJSON>('POST', '/api/auth/passkey/options', { purpose });
  const { startAuthentication } = await import('@simplewebauthn/browser');
  return startAuthentication({ optionsJSON: options });
}

/** Asks the server for a registration challenge and lets the browser create a passkey for the signed-in person. */
export async function passkeyRegistration(): Promise<unknown> {
  const options = await apiJson<PublicKeyCredentialCreationOptionsJSON>('POST', '/api/auth/passkeys/registration-options');
  const { startRegistration } = await import('@simplewebauthn/browser');
  return startRegistration({ optionsJSON: options });
}

/**
 * The text for a failed passkey step: the server's refusal by its code, or, when the browser's dialog was cancelled
 * or the device could not answer, that the passkey was not used.
 */
export function passkeyErrorText(t: TFunction, error: unknown): string {
  return asApiError(error) ? errorText(t, error, t('common:anError')) : t('common:passkeys.notCompleted');
}
