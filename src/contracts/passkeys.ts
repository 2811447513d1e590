// Passkeys (WebAuthn) for staff and patients (issue 12 item 2, docs/decisions/026-passkeys.md). The browser's
// answers are the JSON of @simplewebauthn/browser (base64url fields); the server checks them with
// @simplewebauthn/server against a challenge it stored.
import { z } from 'zod';
import { text } from './fields';

/** A base64url field of a WebAuthn answer (no padding; nothing else). */
const b64url = (max: number) =>
  z
    .string({ error: 'validation:passkeyResponse' })
    .max(max, { error: 'validation:passkeyResponse' })
    .regex(/^[A-Za-z0-9_-]*$/, { error: 'validation:passkeyResponse' });

const transports = z
  .array(
    z
      .string()
      .max(32)
      .regex(/^[a-z-]+$/),
  )
  .max(8);

/** What navigator.credentials.create() answered, as @simplewebauthn/browser's startRegistration returns it. */
export const registrationResponse = z.object(
  {
    id: b64url(512).min(16),
    rawId: b64url(512).min(16),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: b64url(4096),
      attestationObject: b64url(16384),
      transports: transports.optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.object({}).default({}),
  },
  { error: 'validation:passkeyResponse' },
);
export type RegistrationResponse = z.infer<typeof registrationResponse>;

/** What navigator.credentials.get() answered, as @simplewebauthn/browser's startAuthentication returns it. */
export const authenticationResponse = z.object(
  {
    id: b64url(512).min(16),
    rawId: b64url(512).min(16),
    type: z.literal('public-key'),
    response: z.object({
      clientDataJSON: b64url(4096),
      authenticatorData: b64url(4096),
      signature: b64url(1024),
      userHandle: b64url(512).optional(),
    }),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: z.object({}).default({}),
  },
  { error: 'validation:passkeyResponse' },
);
export type AuthenticationResponse = z.infer<typeof authenticationResponse>;

/** The name its owner gives a passkey ("Work laptop"), shown in the list. */
export const passkeyName = text(64, 'validation:passkeyName');

/** POST /api/auth/passkeys: a new passkey for the signed-in staff user or patient. */
export const passkeyRegisterInput = z.strictObject({ name: passkeyName, response: registrationResponse });
export type PasskeyRegisterInput = z.input<typeof passkeyRegisterInput>;

/** POST /api/auth/passkey-login, /api/auth/patient-passkey-login, /api/auth/login/second-factor/passkey, /api/auth/reauth/passkey. */
export const passkeyAssertionInput = z.strictObject({ response: authenticationResponse });

/**
 * POST /api/auth/passkey/options: 'sign_in' (signed out; any of the device's passkeys: staff or patient),
 * 'second_factor' (after the password, the nhr_mfa challenge's user), 'reauth' (signed-in staff, before break-the-glass).
 */
export const PASSKEY_ASSERTION_PURPOSES = ['sign_in', 'second_factor', 'reauth'] as const;
export const passkeyOptionsInput = z.strictObject({ purpose: z.enum(PASSKEY_ASSERTION_PURPOSES, { error: 'validation:invalidValue' }) });

/** The options handed to @simplewebauthn/browser (PublicKeyCredential*OptionsJSON), passed through as they are. */
export const passkeyOptions = z.looseObject({ challenge: z.string() });

/** One of the signed-in person's passkeys. */
export const passkeySummary = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), lastUsedAt: z.string().nullable() });
export const passkeyList = z.array(passkeySummary);
/**
 * POST /api/auth/passkeys: the new passkey; for staff whose recovery codes were all used or never issued (a passkey as
 * the only second factor), the new recovery codes, shown once (issue 21 item 13).
 */
export const passkeyRegistered = passkeySummary.extend({ recoveryCodes: z.array(z.string()).optional() });
export type PasskeyRegistered = z.infer<typeof passkeyRegistered>;
export type PasskeySummary = z.infer<typeof passkeySummary>;

export const passkeyIdParams = z.object({
  id: z
    .string()
    .min(16)
    .max(512)
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'validation:invalidId' }),
});
