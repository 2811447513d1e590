// Passkeys (WebAuthn) for staff and patients (issue 12 item 2, docs/decisions/026-passkeys.md) with
// @simplewebauthn/server: registration and removal by the signed-in owner, and assertions that sign a staff user in
// (a passkey with user verification is password and second factor at once), stand in for the TOTP code after the
// password and before break-the-glass, and sign a patient in (portal module). Every challenge is stored, lives 5
// minutes and is deleted by its first use; every failed assertion is a LOGIN_FAILURE of the account (or NC number),
// so it counts toward the lockout like a wrong password or code (decision 004).
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CurrentUser } from '../../../contracts/auth';
import type { AuthenticationResponse, PasskeyRegistered, PasskeySummary, RegistrationResponse } from '../../../contracts/passkeys';
import type { Actor, RequestMeta, StaffActor } from '../../context/actor';
import type { Db } from '../../db/client';
import type { AppDeps } from '../../deps';
import { AppError, unauthenticated } from '../../errors/app-error';
import { insertSecurityEvent, type SecurityEventRow } from './auth.repository';
import { assertFreshPatientPin } from './patient-reauth.service';
import {
  assertFreshSecondFactor,
  challengeOf,
  recoveryCodesForNewPasskey,
  finishSignIn,
  openStaffSession,
  signInExpiredError,
  type CodeOwner,
} from './mfa.service';
import { readRolePolicy, recordReauth } from './mfa.repository';
import {
  consumeChallenge,
  countStaffPasskeys,
  deleteCredential,
  hasEnabledTotp,
  insertChallenge,
  insertCredential,
  listCredentials,
  readCredential,
  readPatientNcNumber,
  recordCredentialUse,
  type ChallengePurpose,
  type CredentialRow,
  type PasskeyOwner,
} from './passkeys.repository';
import { recordSignInFailure, refuseIfThrottled, serializeSignIn, type SignInAttempt } from './sign-in-throttle.service';

export type { CredentialRow } from './passkeys.repository';

/** How long a challenge may be answered (also the browser's timeout). */
export const PASSKEY_CHALLENGE_MS = 5 * 60_000;

/** The one 401 for every refused assertion (unknown passkey, someone else's, replayed or expired challenge, bad signature). */
export const passkeyFailed = (): AppError => new AppError('PASSKEY_FAILED', 'The passkey could not be used');
const registrationFailed = (): AppError => new AppError('PASSKEY_REGISTRATION_FAILED', 'The passkey could not be added');
const passkeyNotFound = (): AppError => new AppError('PASSKEY_NOT_FOUND', 'Passkey not found');
const noPasskey = (): AppError => new AppError('SECOND_FACTOR_NOT_ENROLLED', 'No passkey is registered');

const ownerOf = (actor: Actor): PasskeyOwner =>
  actor.kind === 'staff' ? { kind: 'staff', userId: actor.userId } : { kind: 'patient', patientId: actor.patientId };

const ownerMetadata = (owner: PasskeyOwner): Record<string, unknown> =>
  owner.kind === 'staff' ? { kind: 'staff' } : { kind: 'patient', patientId: owner.patientId };

const asTransports = (value: string | null): AuthenticatorTransportFuture[] | undefined =>
  value ? (value.split(',') as AuthenticatorTransportFuture[]) : undefined;

/** The subject a failure is counted under when the passkey names no account (unknown, or not of this kind). */
const credentialSubject = (credentialId: string): string => `passkey:${credentialId.slice(0, 64)}`;

/** The challenge a WebAuthn answer signed, read from its clientDataJSON; null when there is none. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && /^[A-Za-z0-9_-]{16,128}$/.test(challenge) ? challenge : null;
  } catch {
    return null;
  }
}

function securityEvent(
  owner: PasskeyOwner,
  who: { facility?: string | null },
  meta: RequestMeta,
  now: Date,
  e: Pick<SecurityEventRow, 'eventType' | 'severity' | 'description'> & { metadata?: Record<string, unknown> },
): SecurityEventRow {
  return {
    userId: owner.kind === 'staff' ? owner.userId : null,
    facility: who.facility ?? null,
    ipAddress: meta.ip,
    userAgent: meta.userAgent,
    timestamp: now,
    eventType: e.eventType,
    severity: e.severity,
    description: e.description,
    metadata: { ...ownerMetadata(owner), ...(e.metadata ?? {}) },
  };
}

const facilityOf = (actor: Actor): string | null => (actor.kind === 'staff' ? actor.facility : null);

// ---- The owner's list, registration and removal -------------------------------------------------------------------

export async function listPasskeys(db: Db, actor: Actor): Promise<PasskeySummary[]> {
  const rows = await listCredentials(db, ownerOf(actor));
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    createdAt: r.createdAt.toISOString(),
    lastUsedAt: r.lastUsedAt ? r.lastUsedAt.toISOString() : null,
  }));
}

/** POST /api/auth/passkeys/registration-options: a challenge bound to this owner and session. */
export async function registrationOptions(
  { db, config }: AppDeps,
  actor: Actor,
  meta: RequestMeta,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  if (!meta.sessionHash) throw unauthenticated();
  // Staff who already have a second factor prove it again first (decision 026 amended): an unlocked, unattended
  // session cannot add a passkey of someone else's.
  if (actor.kind === 'staff') await assertFreshSecondFactor(db, actor, meta.sessionHash, config.now());
  // Patients enter their PIN again first (issue 21 item 2): a session opened long ago, or with a passkey, cannot add one.
  else await assertFreshPatientPin(db, meta.sessionHash, config.now());
  const owner = ownerOf(actor);
  const existing = await listCredentials(db, owner);
  let userName: string;
  let userDisplayName: string;
  if (actor.kind === 'staff') {
    userName = actor.email;
    userDisplayName = `${actor.firstName} ${actor.lastName}`;
  } else {
    // The NC number is what the patient would otherwise type; the passkey picker shows it on their own device.
    userName = (await readPatientNcNumber(db, actor.patientId)) ?? `patient-${actor.patientId}`;
    userDisplayName = userName;
  }
  const options = await generateRegistrationOptions({
    rpName: config.webauthn.rpName,
    rpID: config.webauthn.rpId,
    userName,
    userDisplayName,
    userID: new TextEncoder().encode(owner.kind === 'staff' ? `s:${owner.userId}` : `p:${owner.patientId}`),
    attestationType: 'none',
    timeout: PASSKEY_CHALLENGE_MS,
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: asTransports(c.transports) })),
    // Discoverable (sign-in without typing a name) and with user verification (PIN or biometrics): decision 026.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    supportedAlgorithmIDs: [-7, -257],
  });
  const now = config.now();
  await insertChallenge(
    db,
    {
      challenge: options.challenge,
      purpose: 'register',
      userId: owner.kind === 'staff' ? owner.userId : null,
      patientId: owner.kind === 'patient' ? owner.patientId : null,
      sid: meta.sessionHash,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_MS),
    },
    securityEvent(owner, { facility: facilityOf(actor) }, meta, now, {
      eventType: 'PASSKEY_REGISTRATION_STARTED',
      severity: 'low',
      description: 'Passkey registration started',
    }),
  );
  return options;
}

/** POST /api/auth/passkeys: checks the authenticator's answer against the stored challenge and keeps the passkey. */
export async function registerPasskey(
  { db, config }: AppDeps,
  actor: Actor,
  meta: RequestMeta,
  input: { name: string; response: RegistrationResponse },
): Promise<PasskeyRegistered> {
  const owner = ownerOf(actor);
  const now = config.now();
  if (actor.kind === 'staff') await assertFreshSecondFactor(db, actor, meta.sessionHash, now);
  else await assertFreshPatientPin(db, meta.sessionHash, now);
  const refuse = async (reason: string, detail?: string): Promise<never> => {
    await insertSecurityEvent(
      db,
      securityEvent(owner, { facility: facilityOf(actor) }, meta, now, {
        eventType: 'PASSKEY_REGISTRATION_REFUSED',
        severity: 'medium',
        description: 'Passkey registration refused',
        metadata: { reason, ...(detail ? { detail: detail.slice(0, 200) } : {}) },
      }),
    );
    throw registrationFailed();
  };
  const challenge = signedChallenge(input.response.response.clientDataJSON);
  const row = challenge ? await consumeChallenge(db, challenge, 'register', now) : null;
  if (!row) return refuse('challenge_expired_or_used');
  const sameOwner = owner.kind === 'staff' ? row.userId === owner.userId : row.patientId === owner.patientId;
  if (!sameOwner || row.sid !== meta.sessionHash) return refuse('other_session');
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response as RegistrationResponseJSON,
      expectedChallenge: row.challenge,
      expectedOrigin: config.webauthn.origins,
      expectedRPID: config.webauthn.rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: [-7, -257],
    });
  } catch (err) {
    return refuse('verification_failed', err instanceof Error ? err.message : String(err));
  }
  if (!verified.verified) return refuse('not_verified');
  const { credential } = verified.registrationInfo;
  const transports = (input.response.response.transports ?? []).join(',').slice(0, 200) || null;
  const stored = await insertCredential(
    db,
    {
      id: credential.id,
      owner,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports,
      name: input.name,
      createdAt: now,
    },
    securityEvent(owner, { facility: facilityOf(actor) }, meta, now, {
      eventType: 'PASSKEY_REGISTERED',
      severity: 'medium',
      description: 'Passkey added',
      metadata: { credentialId: credential.id.slice(0, 64), name: input.name },
    }),
  );
  if (!stored) return refuse('already_registered');
  // The new passkey was just used with user verification: the session has proved a second factor now, as enabling
  // the authenticator app records (mfa.service's confirmTotpEnrolment).
  if (actor.kind === 'staff' && meta.sessionHash) await recordReauth(db, meta.sessionHash, now, null);
  const summary = { id: credential.id, name: input.name, createdAt: now.toISOString(), lastUsedAt: null };
  // A staff user without recovery codes (a passkey as the only second factor) gets them now (issue 21 item 13).
  const recoveryCodes = actor.kind === 'staff' ? await recoveryCodesForNewPasskey(db, actor, meta, now) : null;
  return recoveryCodes ? { ...summary, recoveryCodes } : summary;
}

/**
 * DELETE /api/auth/passkeys/{id}: only the owner's own (another's is 404). Staff prove a second factor in this session
 * within the last minutes first (403 REAUTH_REQUIRED otherwise). A staff user whose role keeps the second factor
 * once enrolled cannot remove their last one (no authenticator app either), as for TOTP (decision 024).
 */
export async function removePasskey({ db, config }: AppDeps, actor: Actor, meta: RequestMeta, id: string): Promise<void> {
  const owner = ownerOf(actor);
  if (actor.kind === 'staff') {
    const mine = (await listCredentials(db, owner)).some((c) => c.id === id);
    if (!mine) throw passkeyNotFound();
    // A second factor proved in this session within the last minutes (decision 026 amended), as switching off the
    // authenticator app asks for its code.
    await assertFreshSecondFactor(db, actor, meta.sessionHash, config.now());
    const strict = (await readRolePolicy(db, actor.roleId)) !== 'optional';
    if (strict && (await countStaffPasskeys(db, actor.userId)) <= 1 && !(await hasEnabledTotp(db, actor.userId))) {
      throw new AppError('SECOND_FACTOR_REQUIRED_BY_ROLE', 'Your role requires a second factor');
    }
  }
  const now = config.now();
  const removed = await deleteCredential(
    db,
    owner,
    id,
    securityEvent(owner, { facility: facilityOf(actor) }, meta, now, {
      eventType: 'PASSKEY_REMOVED',
      severity: 'medium',
      description: 'Passkey removed',
      metadata: { credentialId: id.slice(0, 64) },
    }),
  );
  if (!removed) throw passkeyNotFound();
}

// ---- Assertions ---------------------------------------------------------------------------------------------------

/** POST /api/auth/passkey/options: a challenge for signing in, for the step after the password, or for re-authentication. */
export async function assertionOptions(
  deps: AppDeps,
  request: FastifyRequest,
  purpose: 'sign_in' | 'second_factor' | 'reauth',
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const { db, config } = deps;
  let userId: string | null = null;
  let facility: string | null = null;
  let sid: string | null = null;
  if (purpose === 'second_factor') {
    const pending = await challengeOf(deps, request, 'second_factor');
    if (!pending) throw signInExpiredError();
    ({ userId, facility } = pending);
  } else if (purpose === 'reauth') {
    const actor = request.actor;
    if (actor?.kind !== 'staff' || !request.meta.sessionHash) throw unauthenticated();
    ({ userId, facility } = actor);
    sid = request.meta.sessionHash;
  }
  const allow = userId ? await listCredentials(db, { kind: 'staff', userId }) : [];
  if (userId && allow.length === 0) throw noPasskey();
  const options = await generateAuthenticationOptions({
    rpID: config.webauthn.rpId,
    timeout: PASSKEY_CHALLENGE_MS,
    userVerification: 'required',
    ...(userId ? { allowCredentials: allow.map((c) => ({ id: c.id, transports: asTransports(c.transports) })) } : {}),
  });
  const now = config.now();
  await insertChallenge(
    db,
    {
      challenge: options.challenge,
      purpose,
      userId,
      patientId: null,
      sid,
      createdAt: now,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_MS),
    },
    // A signed-out sign-in's challenge names nobody: its attempt is what gets recorded.
    userId
      ? securityEvent({ kind: 'staff', userId }, { facility }, request.meta, now, {
          eventType: 'PASSKEY_CHALLENGE',
          severity: 'low',
          description: purpose === 'reauth' ? 'Passkey asked for re-authentication' : 'Passkey asked as second factor',
          metadata: { purpose },
        })
      : null,
  );
  return options;
}

/** What an assertion must match besides its signature. */
interface AssertionRule {
  purpose: Exclude<ChallengePurpose, 'register'>;
  kind: 'staff' | 'patient';
  /** The user the step is for (after the password, re-authentication). */
  userId?: string;
  /** The session the challenge was asked in (re-authentication). */
  sid?: string | null;
}

/**
 * Uses the challenge the answer signed (single use, whatever follows) and checks the answer: the reason it fails,
 * or null. On success the signature counter moves forward.
 */
export async function checkAssertion(
  { db, config }: AppDeps,
  credential: CredentialRow | null,
  response: AuthenticationResponse,
  rule: AssertionRule,
  now: Date,
): Promise<{ reason: string | null; detail?: string }> {
  const challenge = signedChallenge(response.response.clientDataJSON);
  const row = challenge ? await consumeChallenge(db, challenge, rule.purpose, now) : null;
  if (!credential) return { reason: 'unknown_credential' };
  if (rule.kind === 'staff' && !credential.userId) return { reason: 'patient_credential' };
  if (rule.kind === 'patient' && credential.patientId === null) return { reason: 'staff_credential' };
  if (!row) return { reason: 'challenge_expired_or_used' };
  if (rule.userId && credential.userId !== rule.userId) return { reason: 'other_users_credential' };
  if (row.userId && row.userId !== credential.userId) return { reason: 'other_users_credential' };
  if (rule.sid !== undefined && row.sid !== rule.sid) return { reason: 'other_session' };
  try {
    const result = await verifyAuthenticationResponse({
      response: response as AuthenticationResponseJSON,
      expectedChallenge: row.challenge,
      expectedOrigin: config.webauthn.origins,
      expectedRPID: config.webauthn.rpId,
      requireUserVerification: true,
      credential: {
        id: credential.id,
        publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
        counter: credential.counter,
        transports: asTransports(credential.transports),
      },
    });
    if (!result.verified) return { reason: 'signature_invalid' };
    if (!result.authenticationInfo.userVerified) return { reason: 'user_not_verified' };
    if (!(await recordCredentialUse(db, credential.id, result.authenticationInfo.newCounter, now))) return { reason: 'counter_replayed' };
    return { reason: null };
  } catch (err) {
    return { reason: 'verification_failed', detail: (err instanceof Error ? err.message : String(err)).slice(0, 200) };
  }
}

/**
 * A staff assertion under the sign-in throttle of the passkey's account (its e-mail), or of the credential id when it
 * names no staff account: 429 when locked, 401 PASSKEY_FAILED (a LOGIN_FAILURE) when refused.
 */
async function verifyStaffAssertion(
  deps: AppDeps,
  response: AuthenticationResponse,
  meta: RequestMeta,
  rule: AssertionRule,
): Promise<CodeOwner> {
  const { db, config } = deps;
  const credential = await readCredential(db, response.id);
  const staff =
    credential?.userId && credential.email ? { userId: credential.userId, email: credential.email, facility: credential.facility } : null;
  const subject = staff ? staff.email.toLowerCase() : credentialSubject(response.id);
  return serializeSignIn(subject, meta, async () => {
    const now = config.now();
    const attempt: SignInAttempt = { subject, meta, now };
    await refuseIfThrottled(db, attempt, { factor: 'passkey', purpose: rule.purpose });
    const checked = await checkAssertion(deps, credential, response, rule, now);
    const reason = checked.reason ?? (credential?.accountActive ? null : 'account_inactive');
    const detail = checked.detail;
    if (reason || !staff) {
      await recordSignInFailure(
        db,
        attempt,
        { factor: 'passkey', purpose: rule.purpose, reason, credentialId: response.id.slice(0, 64), ...(detail ? { detail } : {}) },
        staff ?? {},
      );
      throw passkeyFailed();
    }
    return staff;
  });
}

/** POST /api/auth/passkey-login: a staff passkey with user verification opens the session (password and second factor). */
export async function signInWithPasskey(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  response: AuthenticationResponse,
): Promise<CurrentUser> {
  const owner = await verifyStaffAssertion(deps, response, request.meta, { purpose: 'sign_in', kind: 'staff' });
  return openStaffSession(deps, request, reply, owner, 'passkey');
}

/** POST /api/auth/login/second-factor/passkey: a passkey instead of the code after the password. */
export async function secondFactorWithPasskey(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  response: AuthenticationResponse,
): Promise<CurrentUser> {
  const pending = await challengeOf(deps, request, 'second_factor');
  if (!pending) throw signInExpiredError();
  await verifyStaffAssertion(deps, response, request.meta, { purpose: 'second_factor', kind: 'staff', userId: pending.userId });
  return finishSignIn(deps, request, reply, pending, 'passkey');
}

/** POST /api/auth/reauth/passkey: a passkey instead of the code before break-the-glass. */
export async function reauthenticateWithPasskey(
  deps: AppDeps,
  actor: StaffActor,
  meta: RequestMeta,
  response: AuthenticationResponse,
): Promise<Date> {
  if (!meta.sessionHash) throw unauthenticated();
  await verifyStaffAssertion(deps, response, meta, { purpose: 'reauth', kind: 'staff', userId: actor.userId, sid: meta.sessionHash });
  const now = deps.config.now();
  await recordReauth(
    deps.db,
    meta.sessionHash,
    now,
    securityEvent({ kind: 'staff', userId: actor.userId }, { facility: actor.facility }, meta, now, {
      eventType: 'REAUTH_SUCCESS',
      severity: 'low',
      description: 'Second factor confirmed again',
      metadata: { factor: 'passkey' },
    }),
  );
  return now;
}

// ---- The patient's passkey sign-in (composed by the portal module) -----------------------------------------------

/** The patient passkey an answer names, with the patient's NC number (the throttle's subject); null otherwise. */
export async function findPatientPasskey(
  db: Db,
  response: AuthenticationResponse,
): Promise<{ credential: CredentialRow; ncNumber: string } | null> {
  const credential = await readCredential(db, response.id);
  if (credential?.patientId == null) return null;
  const ncNumber = await readPatientNcNumber(db, credential.patientId);
  return ncNumber ? { credential, ncNumber } : null;
}

/**
 * A patient sign-in with a passkey that names no patient (unknown, or a staff user's): the challenge is used up and
 * the attempt is a LOGIN_FAILURE under the credential id; always throws (429 or 401 PASSKEY_FAILED).
 */
export async function refuseNonPatientPasskey(deps: AppDeps, response: AuthenticationResponse, meta: RequestMeta): Promise<never> {
  const { db, config } = deps;
  const subject = credentialSubject(response.id);
  return serializeSignIn(subject, meta, async () => {
    const now = config.now();
    const attempt: SignInAttempt = { subject, meta, now };
    await refuseIfThrottled(db, attempt, { kind: 'patient', method: 'passkey' });
    const credential = await readCredential(db, response.id);
    const { reason } = await checkAssertion(deps, credential, response, { purpose: 'sign_in', kind: 'patient' }, now);
    await recordSignInFailure(db, attempt, { kind: 'patient', method: 'passkey', reason: reason ?? 'not_a_patient_passkey' });
    throw passkeyFailed();
  });
}
