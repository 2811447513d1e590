// System clients of the FHIR R4 API (issue 14 item 5, docs/decisions/020-fhir-system-clients.md): what the
// administrator's screen sends and gets back under /api/admin/api-clients.
import { z } from 'zod';
import { text } from './fields';
import { FHIR_RESOURCE_TYPES, parseFhirScope, type FhirAccess, type FhirResourceType } from './fhir-scopes';

/** The role of every system client's account (migration 0021); it never signs in and is in no staff list. */
export const SYSTEM_CLIENT_ROLE_ID = 900;
/** users.account_status of a system client's account: no sign-in path accepts it, no staff list shows it. */
export const SYSTEM_ACCOUNT_STATUS = 'system';

/** The bearer token: a fixed prefix (so secret scanners can find a leaked one) and 256 random bits, base64url. */
export const API_CLIENT_TOKEN_PREFIX = 'nhrc_';
export const API_CLIENT_TOKEN_PATTERN = /^nhrc_[A-Za-z0-9_-]{43}$/;
/** An access token from the SMART token endpoint (decision 050): its own prefix, 256 random bits, minutes of life. */
export const SMART_ACCESS_TOKEN_PREFIX = 'nhra_';
export const SMART_ACCESS_TOKEN_PATTERN = /^nhra_[A-Za-z0-9_-]{43}$/;

export const API_CLIENT_NAME_MAX = 100;
export const API_CLIENT_SCOPES_MAX = 40;

/** The scope the screen's checkbox for `type` and `access` stands for (system context: no patient launch). */
export const scopeFor = (type: FhirResourceType, access: FhirAccess): string => `system/${type}.${access}`;

/** Which resource types can be written through the FHIR API (create); the others are read-only. */
export const WRITABLE_FHIR_TYPES: readonly FhirResourceType[] = [
  'Condition',
  'AllergyIntolerance',
  'MedicationStatement',
  'Immunization',
  'Observation',
  'DiagnosticReport',
];

export { FHIR_RESOURCE_TYPES };

const scope = z
  .string()
  .max(64, { error: 'validation:invalidScope' })
  .refine((s) => parseFhirScope(s) !== null, { error: 'validation:invalidScope' });

/** How long a token works, in days (decision 030): chosen when it is issued; 90 unless the administrator picks another. */
export const API_CLIENT_LIFETIMES = [30, 90, 365] as const;
export type ApiClientLifetime = (typeof API_CLIENT_LIFETIMES)[number];
export const DEFAULT_API_CLIENT_LIFETIME: ApiClientLifetime = 90;

const lifetimeDays = z.literal(API_CLIENT_LIFETIMES, { error: 'validation:invalidValue' }).default(DEFAULT_API_CLIENT_LIFETIME);

export const apiClientInput = z.strictObject({
  lifetimeDays,
  name: text(API_CLIENT_NAME_MAX, 'validation:clientNameRequired'),
  scopes: z
    .array(scope, { error: 'validation:scopesRequired' })
    .min(1, { error: 'validation:scopesRequired' })
    .max(API_CLIENT_SCOPES_MAX, { error: 'validation:scopesRequired' })
    .transform((list) => [...new Set(list)].sort()),
});
export type ApiClientInput = z.input<typeof apiClientInput>;

/** A new token for a client (decision 030): the old one stops working at once. */
export const apiClientTokenInput = z.strictObject({ lifetimeDays });
export type ApiClientTokenInput = z.input<typeof apiClientTokenInput>;

export const apiClientIdParams = z.object({ id: z.uuid() });

/** The most a client's own limit may be set to (per minute or per hour). */
export const API_CLIENT_LIMIT_MAX = 100_000;
/** The most public keys a client may register (decision 050). */
export const API_CLIENT_JWKS_MAX_KEYS = 10;

const ownLimit = z
  .number({ error: 'validation:invalidLimit' })
  .int({ error: 'validation:invalidLimit' })
  .min(1, { error: 'validation:invalidLimit' })
  .max(API_CLIENT_LIMIT_MAX, { error: 'validation:invalidLimit' })
  .nullable();

/** A JWKS as the screen sends it: its keys are checked by the server (public RSA or EC P-384 keys with a kid). */
export const jwksInput = z.strictObject({
  keys: z
    .array(z.record(z.string(), z.unknown()), { error: 'validation:invalidJwks' })
    .min(1, { error: 'validation:invalidJwks' })
    .max(API_CLIENT_JWKS_MAX_KEYS, { error: 'validation:invalidJwks' }),
});

/**
 * SMART Backend Services and limits of a client (decision 050): its public keys (null: none, so it cannot use the token
 * endpoint) and its own limits (null: the server's defaults).
 */
export const apiClientSmartInput = z.strictObject({
  jwks: jwksInput.nullable(),
  searchesPerMinute: ownLimit,
  openingsPerHour: ownLimit,
});
export type ApiClientSmartInput = z.input<typeof apiClientSmartInput>;

export const apiClient = z.object({
  id: z.string(),
  /** The client's own staff account: audit rows name it (user id and name). */
  userId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
  /** When the current token was issued and when it stops working. */
  tokenIssuedAt: z.string(),
  expiresAt: z.string(),
  /** Its registered public keys for SMART Backend Services (decision 050), or null. */
  jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).nullable(),
  /** Its own limits, or null for the server's defaults (decision 050). */
  searchesPerMinute: z.number().nullable(),
  openingsPerHour: z.number().nullable(),
});
export type ApiClient = z.infer<typeof apiClient>;
export const apiClients = z.array(apiClient);

/** The answer to a create or a new token: the client and its token, shown this once and never again. */
export const createdApiClient = z.object({ client: apiClient, token: z.string() });
export type CreatedApiClient = z.infer<typeof createdApiClient>;
