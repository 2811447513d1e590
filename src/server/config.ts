// Configuration from the environment, read once at start.
import path from 'node:path';
import { CATALOGUE_DIR } from './modules/codes/catalogue-files';
import { DEFAULT_THRESHOLDS, type Thresholds } from './modules/duplicates/match-scoring';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * The standby for reads that tolerate staleness (DATABASE_READ_URL; decision 058): compliance reports, the audit
   * screen's searches, the defaulter list and the duplicate scan's reads. One host, or both of the pair in libpq's
   * form with `?target_session_attrs=prefer-standby`. Absent: every read is on the primary. Ignored on PGlite.
   */
  databaseReadUrl: string | undefined;
  production: boolean;
  logLevel: string;
  clientDir: string;
  /**
   * The folder of the medicine-check knowledge files (MEDICINE_KNOWLEDGE_DIR, default the repository's catalogues/;
   * decision 043): read and checked at start; when one is missing or malformed the checks report unavailable.
   */
  medicineKnowledgeDir: string;
  /** Extra origins allowed on state-changing requests besides the request's own host. */
  trustedOrigins: string[];
  /**
   * Browser origins allowed to call the FHIR API and the SMART token endpoint across sites (FHIR_CORS_ORIGINS,
   * comma-separated, e.g. https://lab.example.na; default none; decision 050). Nothing else under /api/ allows CORS.
   */
  fhirCorsOrigins: string[];
  /**
   * The address clients reach the server at (PUBLIC_URL, e.g. https://records.health.gov.na; default the first
   * WEBAUTHN_ORIGINS entry, else http://localhost:PORT), without a trailing slash: the base of every absolute link the
   * server writes (FHIR Bundle links, fullUrl, Location). Never taken from the request's Host header (issue 21 item 20).
   */
  publicUrl: string;
  /**
   * Fastify's trustProxy: false (default), true, a hop count, or addresses of the proxies. Behind a load balancer
   * set TRUST_PROXY so request.ip (sign-in throttling, security events, audit rows) is the client, not the balancer.
   */
  trustProxy: boolean | string[] | ((address: string, hop: number) => boolean);
  /**
   * The longest one database statement of a request may run (or wait for a lock) on PostgreSQL before it is
   * cancelled and the request answers 503 DATABASE_BUSY (DATABASE_STATEMENT_TIMEOUT_MS; 0 turns it off).
   */
  statementTimeoutMs: number;
  /** The clock every time rule reads (sessions, sign-in throttling); tests replace it instead of sleeping. */
  now: () => Date;
  /** Thresholds of the privacy review's flags (docs/decisions/018-privacy-review.md). */
  privacy: PrivacyThresholds;
  /**
   * The duplicate matcher's two thresholds (MATCH_VERY_LIKELY, MATCH_POSSIBLE; decision 046): a pair scoring at least
   * `veryLikely` is "very likely" one person, at least `possible` "possible"; below, it is not proposed.
   */
  match: Thresholds;
  /**
   * Joining two records (decision 048): above `secondReviewRows` clinical rows of both records together
   * (JOIN_SECOND_REVIEW_ROWS, default 50), a join waits for a second holder of patients.merge to approve it.
   */
  join: { secondReviewRows: number };
  /**
   * The Ed25519 key that signs the daily audit digest (docs/decisions/012-audit-checkpoints-and-digest.md):
   * AUDIT_SIGNING_KEY (PEM text), else the file AUDIT_SIGNING_KEY_FILE (default DATA_DIR/audit-signing-key.pem,
   * created on first use). AUDIT_DIGEST_HOURS: how often the server writes a digest (default 24; 0 turns it off).
   */
  auditSigningKey: { pem: string | undefined; file: string };
  /**
   * The key that seals staff TOTP seeds at rest (src/server/security/secret-box.ts): MFA_SECRET_KEY (base64 of 32
   * bytes), else the file MFA_SECRET_KEY_FILE (default DATA_DIR/mfa-secret.key, created on first use, mode 0600).
   */
  mfaSecretKey: { value: string | undefined; file: string };
  /**
   * The key that seals audit payloads at rest (docs/decisions/042-audit-payloads-out-of-the-chain.md), a key of its own:
   * AUDIT_PAYLOAD_KEY (base64 of 32 bytes), else the file AUDIT_PAYLOAD_KEY_FILE (default DATA_DIR/audit-payload.key,
   * created on first use, mode 0600).
   */
  auditPayloadKey: { value: string | undefined; file: string; name: string };
  auditDigestHours: number;
  /**
   * Where each digest is also sent, so a copy is off the server without anyone remembering (issue 21 item 11):
   * AUDIT_DIGEST_COPY_DIR (a folder, e.g. a mounted share another machine owns) and AUDIT_DIGEST_URL (an http(s)
   * address the signed digest is POSTed to as JSON). `npm run audit:verify` reads the latest digest of the folder.
   */
  auditDigestCopy: { dir: string | undefined; url: string | undefined };
  /**
   * Passkeys (docs/decisions/026-passkeys.md): the relying party's id (WEBAUTHN_RP_ID, the site's host name without
   * port, default localhost), its name shown by the browser (WEBAUTHN_RP_NAME) and the origins a WebAuthn response may
   * come from (WEBAUTHN_ORIGINS, comma-separated; default http://localhost:PORT).
   */
  webauthn: { rpId: string; rpName: string; origins: string[] };
  /** Rate limits shared by every process (docs/decisions/011-rate-limits-and-volume-alerts.md). */
  rateLimits: {
    /** Self-registrations per IP per hour (RATE_LIMIT_REGISTRATIONS_PER_HOUR). */
    registration: RateLimitRule;
    /** Patient searches per user per minute (RATE_LIMIT_SEARCHES_PER_MINUTE). */
    search: RateLimitRule;
    /** Record-access confirmations per user per hour (RATE_LIMIT_ACCESS_GRANTS_PER_HOUR). */
    accessGrant: RateLimitRule;
    /** Compliance reports generated per user per hour (RATE_LIMIT_REPORTS_PER_HOUR). */
    report: RateLimitRule;
    /** Bad FHIR bearer tokens per IP per 15 minutes before every bearer call from it is refused (RATE_LIMIT_BAD_TOKENS_PER_15_MINUTES; decision 020). */
    badToken: RateLimitRule;
    /**
     * Bad FHIR bearer tokens per address per 15 minutes before every bearer call from it is refused
     * (RATE_LIMIT_BAD_TOKENS_PER_ADDRESS_PER_15_MINUTES; decision 050). `badToken` counts per token fingerprint, and a
     * token already over its own limit is not counted here again: one broken client cannot lock out its neighbours.
     */
    badTokenAddress: RateLimitRule;
    /**
     * Passkey challenges asked for per IP per minute by signed-out callers, per user when signed in
     * (RATE_LIMIT_PASSKEY_CHALLENGES_PER_MINUTE; decision 026): each one is a stored challenge.
     */
    passkeyChallenge: RateLimitRule;
    /** Patient portal activation codes issued per staff user per hour (RATE_LIMIT_PORTAL_CODES_PER_HOUR; decision 031). */
    portalCode: RateLimitRule;
  };
  /**
   * The hard ceiling of break-the-glass confirmations (without the patient's consent) by one user or client in the
   * last hour; past it they are refused with 429 BREAK_GLASS_LIMIT (BREAK_GLASS_MAX_PER_HOUR; issue 21 item 8,
   * decision 035).
   */
  breakGlassPerHour: number;
  /** Alerts for the privacy review queue (ALERT_* variables; decision 011). */
  alerts: {
    /** A user whose searches returned more than this many distinct patients... (ALERT_BULK_SEARCH_PATIENTS) */
    bulkSearchPatients: number;
    /** ...within this many minutes gets a BULK_SEARCH_ALERT (ALERT_BULK_SEARCH_MINUTES). */
    bulkSearchMinutes: number;
    /** More distinct patients than this within 24 hours: BULK_SEARCH_DAILY_ALERT (ALERT_BULK_SEARCH_PATIENTS_PER_DAY). */
    bulkSearchPatientsPerDay: number;
    /** More record-access confirmations than this by one user in an hour: GRANT_VOLUME_ALERT, and re-authentication (ALERT_GRANTS_PER_HOUR). */
    grantsPerHour: number;
    /**
     * Failed patient sign-ins naming more than this many different NC numbers (each below the lockout)...
     * (ALERT_SIGN_IN_SPRAY_ACCOUNTS; issue 21 item 3, decision 032)
     */
    sprayAccounts: number;
    /** ...within this many minutes raise a SIGN_IN_SPRAY_ALERT (ALERT_SIGN_IN_SPRAY_MINUTES). */
    sprayMinutes: number;
    /** More portal activation codes than this issued by one staff user in an hour: PORTAL_CODE_VOLUME_ALERT (ALERT_PORTAL_CODES_PER_HOUR; decision 031). */
    portalCodesPerHour: number;
    /**
     * A portal activated within this many minutes of its code, from the issuer's address or browser, then read:
     * PORTAL_DESK_ACTIVATION_ALERT (ALERT_DESK_ACTIVATION_MINUTES; decision 031).
     */
    deskActivationMinutes: number;
  };
  /** Failed patient sign-ins across NC numbers (issue 21 item 3, decision 032); the per-number lockout is decision 004's. */
  portalSignIn: {
    /** Failed patient sign-ins from one address per 15 minutes, whatever numbers they named (PORTAL_FAILED_SIGN_INS_PER_IP). */
    failuresPerIp: number;
    /** Failed patient sign-ins from every address together per minute (PORTAL_FAILED_SIGN_INS_PER_MINUTE). */
    failuresPerMinute: number;
  };
}

export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export interface PrivacyThresholds {
  /** GRANT_RATE: more than this many record-access confirmations by one user within an hour (PRIVACY_GRANTS_PER_HOUR). */
  grantsPerHour: number;
  /** NEW_IP_SEARCHES: more than this many searches in a session begun from a new address (PRIVACY_NEW_IP_SEARCHES). */
  newIpSearches: number;
  /** BULK_SEARCH: more than this many distinct patients in a user's search results (PRIVACY_BULK_SEARCH_PATIENTS)... */
  bulkSearchPatients: number;
  /** ...within this many minutes before or after the access (PRIVACY_BULK_SEARCH_MINUTES). */
  bulkSearchMinutes: number;
}

export const DEFAULT_PRIVACY_THRESHOLDS: PrivacyThresholds = {
  grantsPerHour: 10,
  newIpSearches: 20,
  bulkSearchPatients: 50,
  bulkSearchMinutes: 10,
};

/** An optional http(s) address from the environment; anything else stops the start. */
function httpUrlOrUndefined(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new Error(`${name} must be an http or https address, got "${raw}"`);
  return url.href;
}

/** PUBLIC_URL checked (http or https, no query or fragment) and without a trailing slash; see Config.publicUrl. */
function publicUrlOf(env: NodeJS.ProcessEnv, port: number): string {
  const raw = env.PUBLIC_URL?.trim() || commaList(env.WEBAUTHN_ORIGINS)[0] || `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_URL must be an http or https address, got "${raw}"`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password)
    throw new Error(`PUBLIC_URL must be an http or https address without query, fragment or credentials, got "${raw}"`);
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

function positiveInteger(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of 1 or more, got "${raw}"`);
  return value;
}

/** Clinical rows of both records above which a join needs a second reviewer (decision 048). */
export const DEFAULT_JOIN_SECOND_REVIEW_ROWS = 50;

function matchThresholds(env: NodeJS.ProcessEnv): Thresholds {
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got "${raw}"`);
    return value;
  };
  const thresholds = {
    veryLikely: read('MATCH_VERY_LIKELY', DEFAULT_THRESHOLDS.veryLikely),
    possible: read('MATCH_POSSIBLE', DEFAULT_THRESHOLDS.possible),
  };
  if (thresholds.possible > thresholds.veryLikely) throw new Error('MATCH_POSSIBLE must not be above MATCH_VERY_LIKELY');
  return thresholds;
}

function privacyThresholds(env: NodeJS.ProcessEnv): PrivacyThresholds {
  const d = DEFAULT_PRIVACY_THRESHOLDS;
  return {
    grantsPerHour: positiveInteger(env, 'PRIVACY_GRANTS_PER_HOUR', d.grantsPerHour),
    newIpSearches: positiveInteger(env, 'PRIVACY_NEW_IP_SEARCHES', d.newIpSearches),
    bulkSearchPatients: positiveInteger(env, 'PRIVACY_BULK_SEARCH_PATIENTS', d.bulkSearchPatients),
    bulkSearchMinutes: positiveInteger(env, 'PRIVACY_BULK_SEARCH_MINUTES', d.bulkSearchMinutes),
  };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 5000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReadUrl: env.DATABASE_READ_URL?.trim() || undefined,
    production: env.NODE_ENV === 'production',
    logLevel: env.LOG_LEVEL ?? 'info',
    clientDir: path.resolve(env.CLIENT_DIR ?? './dist/client'),
    medicineKnowledgeDir: env.MEDICINE_KNOWLEDGE_DIR?.trim() ? path.resolve(env.MEDICINE_KNOWLEDGE_DIR.trim()) : CATALOGUE_DIR,
    trustedOrigins: commaList(env.TRUSTED_ORIGINS),
    fhirCorsOrigins: commaList(env.FHIR_CORS_ORIGINS),
    publicUrl: publicUrlOf(env, port),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    statementTimeoutMs: wholeNumber(env, 'DATABASE_STATEMENT_TIMEOUT_MS', DEFAULT_STATEMENT_TIMEOUT_MS),
    now: () => new Date(),
    privacy: privacyThresholds(env),
    match: matchThresholds(env),
    join: { secondReviewRows: positiveInteger(env, 'JOIN_SECOND_REVIEW_ROWS', DEFAULT_JOIN_SECOND_REVIEW_ROWS) },
    auditSigningKey: {
      pem: env.AUDIT_SIGNING_KEY?.trim() || undefined,
      file: path.resolve(env.AUDIT_SIGNING_KEY_FILE ?? path.join(env.DATA_DIR ?? './data', 'audit-signing-key.pem')),
    },
    auditDigestHours: wholeNumber(env, 'AUDIT_DIGEST_HOURS', 24),
    auditDigestCopy: {
      dir: env.AUDIT_DIGEST_COPY_DIR?.trim() ? path.resolve(env.AUDIT_DIGEST_COPY_DIR.trim()) : undefined,
      url: httpUrlOrUndefined(env, 'AUDIT_DIGEST_URL'),
    },
    mfaSecretKey: {
      value: env.MFA_SECRET_KEY?.trim() || undefined,
      file: path.resolve(env.MFA_SECRET_KEY_FILE ?? path.join(env.DATA_DIR ?? './data', 'mfa-secret.key')),
    },
    auditPayloadKey: {
      value: env.AUDIT_PAYLOAD_KEY?.trim() || undefined,
      file: path.resolve(env.AUDIT_PAYLOAD_KEY_FILE ?? path.join(env.DATA_DIR ?? './data', 'audit-payload.key')),
      name: 'AUDIT_PAYLOAD_KEY',
    },
    webauthn: {
      rpId: env.WEBAUTHN_RP_ID?.trim() || 'localhost',
      rpName: env.WEBAUTHN_RP_NAME?.trim() || 'National Health Records',
      origins: commaList(env.WEBAUTHN_ORIGINS).length ? commaList(env.WEBAUTHN_ORIGINS) : [`http://localhost:${port}`],
    },
    rateLimits: {
      registration: { max: positiveInteger(env, 'RATE_LIMIT_REGISTRATIONS_PER_HOUR', 20), windowMs: 3_600_000 },
      search: { max: positiveInteger(env, 'RATE_LIMIT_SEARCHES_PER_MINUTE', 30), windowMs: 60_000 },
      accessGrant: { max: positiveInteger(env, 'RATE_LIMIT_ACCESS_GRANTS_PER_HOUR', 120), windowMs: 3_600_000 },
      report: { max: positiveInteger(env, 'RATE_LIMIT_REPORTS_PER_HOUR', 20), windowMs: 3_600_000 },
      badToken: { max: positiveInteger(env, 'RATE_LIMIT_BAD_TOKENS_PER_15_MINUTES', 20), windowMs: 900_000 },
      badTokenAddress: { max: positiveInteger(env, 'RATE_LIMIT_BAD_TOKENS_PER_ADDRESS_PER_15_MINUTES', 200), windowMs: 900_000 },
      passkeyChallenge: { max: positiveInteger(env, 'RATE_LIMIT_PASSKEY_CHALLENGES_PER_MINUTE', 120), windowMs: 60_000 },
      portalCode: { max: positiveInteger(env, 'RATE_LIMIT_PORTAL_CODES_PER_HOUR', 20), windowMs: 3_600_000 },
    },
    breakGlassPerHour: positiveInteger(env, 'BREAK_GLASS_MAX_PER_HOUR', 20),
    alerts: {
      bulkSearchPatients: positiveInteger(env, 'ALERT_BULK_SEARCH_PATIENTS', 200),
      bulkSearchMinutes: positiveInteger(env, 'ALERT_BULK_SEARCH_MINUTES', 10),
      bulkSearchPatientsPerDay: positiveInteger(env, 'ALERT_BULK_SEARCH_PATIENTS_PER_DAY', 1000),
      grantsPerHour: positiveInteger(env, 'ALERT_GRANTS_PER_HOUR', 30),
      sprayAccounts: positiveInteger(env, 'ALERT_SIGN_IN_SPRAY_ACCOUNTS', 10),
      sprayMinutes: positiveInteger(env, 'ALERT_SIGN_IN_SPRAY_MINUTES', 10),
      portalCodesPerHour: positiveInteger(env, 'ALERT_PORTAL_CODES_PER_HOUR', 10),
      deskActivationMinutes: positiveInteger(env, 'ALERT_DESK_ACTIVATION_MINUTES', 30),
    },
    portalSignIn: {
      failuresPerIp: positiveInteger(env, 'PORTAL_FAILED_SIGN_INS_PER_IP', 10),
      failuresPerMinute: positiveInteger(env, 'PORTAL_FAILED_SIGN_INS_PER_MINUTE', 30),
    },
  };
}

function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Long enough for a full-range audit report on millions of rows; a hung lock wait ends well before a proxy gives up. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return value;
}

function parseTrustProxy(value: string | undefined): Config['trustProxy'] {
  const v = (value ?? '').trim();
  if (v === '' || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v); // trust this many proxies in front of the app
    return (_address, hop) => hop < hops;
  }
  return v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
