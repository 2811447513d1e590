// The one database schema (SPEC §3 plus DESIGN.md additions). Column names are snake_case.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const roles = pgTable('roles', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull().unique(),
  displayName: varchar('display_name', { length: 128 }).notNull(),
  description: text('description'),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
});

export const permissions = pgTable('permissions', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 64 }).notNull().unique(),
  displayName: varchar('display_name', { length: 128 }).notNull(),
  resource: varchar('resource', { length: 64 }).notNull(),
  action: varchar('action', { length: 64 }).notNull(),
  description: text('description'),
});

export const rolePermissions = pgTable(
  'role_permissions',
  {
    id: serial('id').primaryKey(),
    roleId: integer('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('role_permissions_role_permission_idx').on(t.roleId, t.permissionId)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: varchar('email', { length: 254 }).notNull().unique(),
    firstName: varchar('first_name', { length: 100 }).notNull(),
    lastName: varchar('last_name', { length: 100 }).notNull(),
    passwordHash: text('password_hash').notNull(),
    profileImageUrl: text('profile_image_url'),
    isActive: boolean('is_active').notNull().default(false),
    accountStatus: varchar('account_status', { length: 32 }).notNull().default('pending'),
    roleId: integer('role_id').references(() => roles.id),
    facility: varchar('facility', { length: 200 }),
    department: varchar('department', { length: 100 }),
    phoneNumber: varchar('phone_number', { length: 32 }),
    licenseNumber: varchar('license_number', { length: 64 }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    activatedBy: text('activated_by'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    /** Where the staff member lives (optional): the privacy review flags accesses to patients at the same address. */
    address: varchar('address', { length: 300 }),
  },
  (t) => [index('users_account_status_idx').on(t.accountStatus)],
);

/** Per-user exceptions to the role's permissions: isGranted true adds one, false revokes one (a revocation wins). */
export const userPermissions = pgTable(
  'user_permissions',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    permissionId: integer('permission_id')
      .notNull()
      .references(() => permissions.id, { onDelete: 'cascade' }),
    isGranted: boolean('is_granted').notNull().default(true),
    createdAt: createdAt(),
    grantedBy: text('granted_by'),
  },
  // Read on every staff request (the actor's permissions).
  (t) => [index('user_permissions_user_idx').on(t.userId)],
);

/** Server-side sessions; sid holds the SHA-256 of the cookie token, never the token itself. */
export const sessions = pgTable(
  'sessions',
  {
    sid: varchar('sid', { length: 64 }).primaryKey(),
    sess: jsonb('sess').notNull(),
    expire: timestamp('expire', { withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_expire_idx').on(t.expire)],
);

/** One row per staff sign-in; sessionId is the sessions.sid it opened (the token's hash). */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sessionId: varchar('session_id', { length: 64 }).notNull(),
    loginTime: timestamp('login_time', { withTimezone: true }).notNull().defaultNow(),
    lastActivity: timestamp('last_activity', { withTimezone: true }).notNull().defaultNow(),
    ipAddress: varchar('ip_address', { length: 64 }),
    userAgent: text('user_agent'),
    isActive: boolean('is_active').notNull().default(true),
  },
  (t) => [index('user_sessions_session_idx').on(t.sessionId), index('user_sessions_user_idx').on(t.userId)],
);

export const securityEvents = pgTable(
  'security_events',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id'),
    eventType: varchar('event_type', { length: 64 }).notNull(),
    severity: varchar('severity', { length: 16 }).notNull(),
    description: text('description').notNull(),
    ipAddress: varchar('ip_address', { length: 64 }),
    userAgent: text('user_agent'),
    metadata: jsonb('metadata'),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    facility: varchar('facility', { length: 200 }),
    /**
     * What a sign-in attempt named: the lower-cased e-mail (staff) or the NC number (patients). Set on sign-in
     * attempts only, so `subject IS NOT NULL` means "a sign-in attempt"; the throttle counts these rows.
     */
    subject: varchar('subject', { length: 254 }),
  },
  (t) => [
    index('security_events_type_time_idx').on(t.eventType, t.timestamp),
    index('security_events_subject_time_idx')
      .on(t.subject, t.timestamp)
      .where(sql`${t.subject} IS NOT NULL`),
    index('security_events_ip_time_idx')
      .on(t.ipAddress, t.timestamp)
      .where(sql`${t.subject} IS NOT NULL`),
  ],
);

export const patients = pgTable(
  'patients',
  {
    id: serial('id').primaryKey(),
    firstName: varchar('first_name', { length: 100 }).notNull(),
    lastName: varchar('last_name', { length: 100 }).notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }),
    sex: varchar('sex', { length: 16 }).notNull(),
    idNumber: varchar('id_number', { length: 11 }).notNull().unique(),
    contactNumber: varchar('contact_number', { length: 32 }),
    address: varchar('address', { length: 300 }).notNull().default(''),
    nextOfKin: varchar('next_of_kin', { length: 200 }).notNull().default(''),
    nextOfKinContact: varchar('next_of_kin_contact', { length: 32 }).notNull().default(''),
    /** VIP/restricted record (set by an administrator, audited): every break-the-glass access to it is flagged. */
    restricted: boolean('restricted').notNull().default(false),
    /** Joined into another record (issue 24, decision 048): this record is inactive and its NC number resolves there. */
    replacedBy: integer('replaced_by').references((): AnyPgColumn => patients.id),
    replacedAt: timestamp('replaced_at', { withTimezone: true }),
    createdAt: createdAt(),
    // Normalized search columns, maintained by the database (lower case, no accents, no spaces or punctuation).
    firstNameNorm: text('first_name_norm').generatedAlwaysAs(sql`nhr_norm(first_name)`),
    lastNameNorm: text('last_name_norm').generatedAlwaysAs(sql`nhr_norm(last_name)`),
  },
  // The search indexes (INCLUDE columns for index-only scans, an expression index on the address) are in
  // migration 0007_patient_search_index.sql: drizzle cannot declare them.
);

/**
 * Patient search (DESIGN.md §8, docs/decisions/008-patient-search.md), kept by triggers on patients
 * (migration 0007). Its indexes with INCLUDE columns are in that migration: drizzle cannot declare INCLUDE.
 *
 * One row per (last-name word, first-name word) of each patient, with the date of birth: two names and an age
 * range find their patients in one index range scan per word pair, whatever the size of the registry.
 * Words are the normalized whole name and each word of a multi-word name ('vanwyk' and 'wyk').
 */
export const patientNamePairs = pgTable('patient_name_pairs', {
  lastWord: text('last_word').notNull(),
  firstWord: text('first_word').notNull(),
  dateOfBirth: date('date_of_birth', { mode: 'string' }),
  patientId: integer('patient_id').notNull(),
  /** Both words are the whole normalized names (not one word of a longer name). */
  whole: boolean('whole').notNull(),
});

/** Every distinct name word, with its phonetic codes: what misspelled and partial search words are matched against. */
export const nameWords = pgTable(
  'name_words',
  {
    word: text('word').primaryKey(),
    /** Patients with this word in a name: ranks equally close words (the commoner name is the likelier one). */
    patients: integer('patients').notNull().default(0),
    dm: text('dm').generatedAlwaysAs(sql`nhr_dmetaphone(word)`),
    dmAlt: text('dm_alt').generatedAlwaysAs(sql`nhr_dmetaphone_alt(word)`),
  },
  (t) => [
    index('name_words_prefix_idx').on(t.word.op('text_pattern_ops')),
    // Single words only: long concatenated names share their first word's code and would crowd the lookups.
    index('name_words_dm_idx')
      .on(t.dm)
      .where(sql`length(word) <= 12`),
    index('name_words_dm_alt_idx')
      .on(t.dmAlt)
      .where(sql`length(word) <= 12`),
    // Long words only: there, trigram similarity separates well and complements the deletion neighbourhoods.
    index('name_words_long_trgm_idx')
      .using('gin', t.word.op('gin_trgm_ops'))
      .with({ fastupdate: false })
      .where(sql`length(word) >= 11`),
  ],
);

/** Deletion neighbourhoods (up to two letters deleted) of the name words: an index lookup finds every word within two typos. */
export const nameWordDeletes = pgTable(
  'name_word_deletes',
  {
    del: text('del').notNull(),
    word: text('word').notNull(),
  },
  (t) => [primaryKey({ columns: [t.del, t.word] })],
);

/** A record table's patient: deleted with the patient. Each kind's table (modules/records/kinds) starts with it. */
export const patientRef = () =>
  integer('patient_id')
    .notNull()
    .references(() => patients.id, { onDelete: 'cascade' });

/** Record access grants (DESIGN.md §4, break-the-glass): consent or a stated reason, 8 hours. */
export const accessGrants = pgTable(
  'access_grants',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    patientId: patientRef(),
    consent: boolean('consent').notNull(),
    reason: varchar('reason', { length: 500 }),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('access_grants_user_patient_idx').on(t.userId, t.patientId, t.expiresAt),
    // The grant-volume count: this user's grants of the last hour (migration 0030).
    index('access_grants_user_granted_idx').on(t.userId, t.grantedAt),
  ],
);

export const auditLogs = pgTable(
  'audit_logs',
  {
    // bigint: at thousands of rows a second an int4 id runs out within weeks. The key is (id, timestamp): the table is
    // partitioned by month of its timestamp (migration 0054, decision 057) and PostgreSQL wants the partition key in it.
    id: bigserial('id', { mode: 'number' }).notNull(),
    userId: text('user_id').notNull(),
    userName: varchar('user_name', { length: 256 }).notNull(),
    action: varchar('action', { length: 16 }).notNull(),
    resourceType: varchar('resource_type', { length: 32 }).notNull(),
    resourceId: text('resource_id'),
    patientId: integer('patient_id'),
    oldValues: jsonb('old_values'),
    newValues: jsonb('new_values'),
    ipAddress: varchar('ip_address', { length: 64 }),
    userAgent: text('user_agent'),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    sessionId: varchar('session_id', { length: 64 }),
    facility: varchar('facility', { length: 200 }),
    complianceFlags: jsonb('compliance_flags'),
    // sha256(salt hex || canonical JSON of the payload) of a row whose payload is in audit_payloads (decision 042);
    // chained only when not null, so the rows written before it existed hash as they always did.
    payloadHash: varchar('payload_hash', { length: 64 }),
    // Tamper evidence (DESIGN.md §6): hash = sha256(prev_hash || canonical JSON of the row). The log is
    // AUDIT_CHAINS parallel hash chains (see audit_chain_head); chain_seq is the row's position in its chain.
    chain: smallint('chain').notNull(),
    chainSeq: bigint('chain_seq', { mode: 'number' }).notNull(),
    prevHash: varchar('prev_hash', { length: 64 }).notNull(),
    hash: varchar('hash', { length: 64 }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'audit_logs_pkey', columns: [t.id, t.timestamp] }),
    index('audit_logs_timestamp_idx').on(t.timestamp),
    index('audit_logs_patient_idx').on(t.patientId, t.timestamp),
    index('audit_logs_user_idx').on(t.userId, t.timestamp),
    // Not unique: a unique index of a partitioned table must hold the partition key. The chain head's lock keeps
    // positions unique; the verifier names a repeated one.
    index('audit_logs_chain_seq_idx').on(t.chain, t.chainSeq),
    // Action filter of the audit screen and the ACCESS_LOG / DATA_MODIFICATION reports.
    index('audit_logs_action_idx').on(t.action, t.timestamp),
    // Break-the-glass accesses of the HIPAA report: a partial index, so ordinary rows cost nothing.
    index('audit_logs_break_glass_idx')
      .on(t.timestamp)
      .where(sql`${t.complianceFlags} ->> 'type' = 'BREAK_GLASS'`),
    // Verdicts of the privacy review (ACCESS_REVIEW rows) by the break-the-glass row they review.
    index('audit_logs_review_idx')
      .on(t.resourceId, t.timestamp)
      .where(sql`${t.resourceType} = 'ACCESS_REVIEW'`),
  ],
);

/**
 * The payloads of audit rows (decision 042): the old and new values of a change, out of the hash chain. salt and
 * ciphertext are sealed (security/secret-box.ts) with AUDIT_PAYLOAD_KEY; shredding sets both to NULL and names when, who
 * and why. The row itself is kept (migration 0043's trigger refuses DELETE and any other UPDATE), so a missing payload
 * is detectable. No foreign key: audit_logs is to be partitioned by month; the verifier checks that each row is there.
 */
export const auditPayloads = pgTable(
  'audit_payloads',
  {
    auditId: bigint('audit_id', { mode: 'number' }).primaryKey(),
    salt: text('salt'),
    ciphertext: text('ciphertext'),
    shreddedAt: timestamp('shredded_at', { withTimezone: true }),
    shreddedBy: text('shredded_by'),
    shredReason: varchar('shred_reason', { length: 500 }),
  },
  (t) => [
    check(
      'audit_payloads_sealed_or_shredded',
      sql`(${t.salt} IS NULL) = (${t.ciphertext} IS NULL) AND (${t.ciphertext} IS NULL) = (${t.shreddedAt} IS NOT NULL)`,
    ),
  ],
);

/**
 * The heads of the audit hash chains: one row per chain (1..AUDIT_CHAINS, src/server/audit/audit-hash.ts).
 * Every audit write advances one head in the same statement as its insert: the head's row lock, held until
 * the writer commits, serializes that chain's writers (it never forks), positions stay contiguous (a
 * rolled-back write rolls its head back too), and a deleted tail is detectable. Several chains let
 * concurrent transactions commit in parallel instead of queueing behind one lock for every commit.
 * prev_hash keeps the previous last_hash so the insert can read it from RETURNING.
 */
export const auditChainHead = pgTable(
  'audit_chain_head',
  {
    chain: smallint('chain').primaryKey(),
    lastSeq: bigint('last_seq', { mode: 'number' }).notNull(),
    lastId: bigint('last_id', { mode: 'number' }),
    lastHash: varchar('last_hash', { length: 64 }).notNull(),
    /** The timestamp of the chain's last row: the next is never stamped earlier (migration 0058, decision 057). */
    lastTs: timestamp('last_ts', { withTimezone: true }),
    prevHash: varchar('prev_hash', { length: 64 }).notNull(),
  },
  (t) => [check('audit_chain_head_chain', sql`${t.chain} >= 1`)],
);

export const complianceReports = pgTable(
  'compliance_reports',
  {
    id: serial('id').primaryKey(),
    reportType: varchar('report_type', { length: 32 }).notNull(),
    title: varchar('title', { length: 200 }).notNull(),
    description: text('description'),
    dateRange: text('date_range').notNull(),
    generatedBy: varchar('generated_by', { length: 256 }).notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull().defaultNow(),
    status: varchar('status', { length: 16 }).notNull(),
    reportData: text('report_data').notNull(),
    facility: varchar('facility', { length: 200 }),
    /** True when a detail list of the report holds only its first REPORT_DETAIL_LIMIT rows (the summary is exact). */
    detailsCapped: boolean('details_capped').notNull().default(false),
  },
  (t) => [index('compliance_reports_generated_idx').on(t.generatedAt.desc(), t.id.desc())],
);

/**
 * Archive and restore events of compliance reports (issue 10 item 2, issue 21 item 15); insert-only. A report's
 * state is its latest event (archived true: hidden from the list, kept; false: restored).
 */
export const complianceReportArchives = pgTable(
  'compliance_report_archives',
  {
    id: serial('id').primaryKey(),
    reportId: integer('report_id')
      .notNull()
      .references(() => complianceReports.id),
    archived: boolean('archived').notNull().default(true),
    archivedAt: timestamp('archived_at', { withTimezone: true }).notNull().defaultNow(),
    archivedBy: varchar('archived_by', { length: 256 }).notNull(),
    archivedByUserId: text('archived_by_user_id').notNull(),
  },
  (t) => [index('compliance_report_archives_report_idx').on(t.reportId, t.id.desc())],
);

/**
 * Rate limits' counted requests, shared by every process (decisions 011 and 059): one row per counted request, never
 * updated, so requests counted at the same moment do not wait on each other; a limit counts its key's rows of the
 * current window on the (key, at) index. Rows older than a day are deleted by chance (http/rate-limit).
 */
export const rateLimitCounts = pgTable(
  'rate_limit_counts',
  {
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    /** The database session (pg_backend_pid()) that counted: one row each, so no two transactions share one. */
    backend: integer('backend').notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [
    primaryKey({ name: 'rate_limit_counts_pkey', columns: [t.key, t.windowStart, t.backend] }),
    index('rate_limit_counts_window_start_idx').on(t.windowStart),
  ],
);

/**
 * The patients each user's searches found, with when each was last found: what the bulk-search check counts
 * (nhr_bulk_search_check, migrations 0028 and 0037; decisions 028 and 036). Rows older than both the alert window and
 * a day are deleted by the check; the counts read the (user, last_seen) index.
 */
export const searchVolume = pgTable(
  'search_volume',
  {
    userId: text('user_id').notNull(),
    patientId: integer('patient_id').notNull(),
    lastSeen: timestamp('last_seen', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'search_volume_pkey', columns: [t.userId, t.patientId] }),
    index('search_volume_user_seen_idx').on(t.userId, t.lastSeen),
  ],
);

/** Audit checkpoints: the chain count and each chain's head (docs/decisions/012-audit-checkpoints-and-digest.md). */
export const auditCheckpoints = pgTable('audit_checkpoints', {
  id: serial('id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  chainCount: smallint('chain_count').notNull(),
  heads: jsonb('heads').notNull(),
});

/**
 * The months of audit_logs detached for archive (decision 057), each with the signed checkpoint written before its
 * partition was detached: row count, first and last id, a hash over the archived rows, and each chain's position and
 * hash at the start and end of the month. The live verifier starts each chain from the latest month's chain ends.
 */
export const auditArchives = pgTable('audit_archives', {
  month: varchar('month', { length: 7 }).primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  checkpoint: jsonb('checkpoint').notNull(),
  detachedAt: timestamp('detached_at', { withTimezone: true }),
});

/** A staff user's TOTP secret (RFC 6238, base32); enabledAt null while enrolment awaits its first code. */
export const staffTotp = pgTable('staff_totp', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** Sealed (security/secret-box.ts): `v1.<iv>.<tag>.<ciphertext>`, never the seed itself. */
  secret: varchar('secret', { length: 255 }).notNull(),
  enabledAt: timestamp('enabled_at', { withTimezone: true }),
  /** The last 30-second step accepted: a code of this step or earlier is refused (no replay). */
  lastStep: bigint('last_step', { mode: 'number' }).notNull().default(0),
  createdAt: createdAt(),
});

/** Single-use recovery codes, stored as SHA-256 hex (the codes carry 50 random bits each). */
export const staffRecoveryCodes = pgTable(
  'staff_recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: varchar('code_hash', { length: 64 }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('staff_recovery_codes_user_idx').on(t.userId)],
);

/** Between the password and the second factor (or the forced enrolment): the nhr_mfa cookie's token hash. */
export const staffSignInChallenges = pgTable(
  'staff_sign_in_challenges',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: varchar('purpose', { length: 16 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [check('staff_sign_in_challenges_purpose_check', sql`${t.purpose} IN ('second_factor', 'enrol')`)],
);

/** When a session last proved a second factor (sign-in or re-authentication): break-the-glass asks for it. */
export const sessionReauth = pgTable('session_reauth', {
  sid: varchar('sid', { length: 64 })
    .primaryKey()
    .references(() => sessions.sid, { onDelete: 'cascade' }),
  verifiedAt: timestamp('verified_at', { withTimezone: true }).notNull(),
});

/** Per role: 'optional', 'once_enrolled' (cannot be switched off) or 'required' (must enrol). Decision 024. */
export const mfaRolePolicy = pgTable(
  'mfa_role_policy',
  {
    roleId: integer('role_id')
      .primaryKey()
      .references(() => roles.id, { onDelete: 'cascade' }),
    policy: varchar('policy', { length: 16 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: text('updated_by'),
  },
  (t) => [check('mfa_role_policy_policy_check', sql`${t.policy} IN ('optional', 'once_enrolled', 'required')`)],
);

/**
 * The patient portal's second factor (migration 0019, docs/decisions/016-patient-portal-second-factor.md): the
 * patient's PIN and the one live activation code, both argon2id hashes. A code is used by one conditional update
 * (`WHERE code_hash =` the hash that was checked), which clears it and sets the PIN.
 */
export const patientPortalCredentials = pgTable('patient_portal_credentials', {
  patientId: integer('patient_id')
    .primaryKey()
    .references(() => patients.id, { onDelete: 'cascade' }),
  pinHash: text('pin_hash'),
  pinSetAt: timestamp('pin_set_at', { withTimezone: true }),
  codeHash: text('code_hash'),
  codeIssuedAt: timestamp('code_issued_at', { withTimezone: true }),
  codeExpiresAt: timestamp('code_expires_at', { withTimezone: true }),
  /** The staff user id that issued the live code (or the last one). */
  codeIssuedBy: text('code_issued_by'),
  /** When the last code was used (so a second use is recorded as such). */
  codeUsedAt: timestamp('code_used_at', { withTimezone: true }),
  /** The live code was issued for a portal already active: it needs the current PIN, unless the reset was confirmed. */
  codeNeedsCurrentPin: boolean('code_needs_current_pin').notNull().default(false),
  /** The address and browser the live code was issued from (the desk-activation alert, decision 031). */
  codeIssuedIp: varchar('code_issued_ip', { length: 64 }),
  codeIssuedUserAgent: text('code_issued_user_agent'),
  /** A second staff member who confirmed a reset without the current PIN (two-person rule), and when. */
  resetConfirmedBy: text('reset_confirmed_by'),
  resetConfirmedAt: timestamp('reset_confirmed_at', { withTimezone: true }),
  /** What the patient is told at the next sign-in after a confirmed reset ({ at, issuedBy, confirmedBy }); null once seen. */
  resetNotice: jsonb('reset_notice'),
  /** A portal session opened with a code soon after, and from where, its issuer issued it: reads raise an alert. */
  suspectSession: varchar('suspect_session', { length: 64 }),
  suspectIssuer: text('suspect_issuer'),
});

/**
 * Passkeys (migration 0022, docs/decisions/026-passkeys.md): a WebAuthn credential of one staff user or one patient
 * (never both): its id and COSE public key (base64url), the signature counter, and a name its owner gave it.
 */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    id: varchar('id', { length: 512 }).primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    patientId: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    /** The authenticator's transports, comma-separated (a hint for the browser). */
    transports: varchar('transports', { length: 200 }),
    name: varchar('name', { length: 64 }).notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    index('webauthn_credentials_user_idx').on(t.userId),
    index('webauthn_credentials_patient_idx').on(t.patientId),
    check('webauthn_credentials_owner_check', sql`(${t.userId} IS NULL) <> (${t.patientId} IS NULL)`),
  ],
);

/** A WebAuthn challenge: 5 minutes, deleted when used (single use); bound to its user/patient and session where known. */
export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    challenge: varchar('challenge', { length: 128 }).primaryKey(),
    purpose: varchar('purpose', { length: 16 }).notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    patientId: integer('patient_id').references(() => patients.id, { onDelete: 'cascade' }),
    sid: varchar('sid', { length: 64 }).references(() => sessions.sid, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('webauthn_challenges_expires_idx').on(t.expiresAt),
    check('webauthn_challenges_purpose_check', sql`${t.purpose} IN ('register', 'sign_in', 'second_factor', 'reauth')`),
  ],
);

/**
 * System clients of the FHIR API (migration 0021, docs/decisions/020-fhir-system-clients.md): each is a users row of
 * account status 'system' (never signs in) plus this row. token_hash is the SHA-256 hex of the bearer token, which is
 * shown once at creation and never stored. last_used_at is written at most once a minute.
 */
export const apiClients = pgTable(
  'api_clients',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .unique()
      .references(() => users.id),
    name: varchar('name', { length: 100 }).notNull(),
    scopes: text('scopes').array().notNull(),
    tokenHash: varchar('token_hash', { length: 64 }).notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
    /** When the current token was issued, and when it stops working (decision 030). */
    tokenIssuedAt: timestamp('token_issued_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** The client's public keys for SMART Backend Services (decision 050): a JWKS, or null when it has none. */
    jwks: jsonb('jwks'),
    /** The client's own limits (decision 050); null: the server's defaults. */
    searchesPerMinute: integer('searches_per_minute'),
    openingsPerHour: integer('openings_per_hour'),
  },
  (t) => [uniqueIndex('api_clients_token_hash_idx').on(t.tokenHash)],
);

/** Access tokens issued at the SMART token endpoint (decision 050): short-lived, stored by their SHA-256. */
export const smartAccessTokens = pgTable(
  'smart_access_tokens',
  {
    tokenHash: varchar('token_hash', { length: 64 }).primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.id),
    scopes: text('scopes').array().notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('smart_access_tokens_expires_idx').on(t.expiresAt)],
);

/** The jti of every accepted client assertion, kept until the assertion's exp: none is accepted twice (decision 050). */
export const smartAssertionJtis = pgTable(
  'smart_assertion_jtis',
  {
    clientId: text('client_id')
      .notNull()
      .references(() => apiClients.id),
    jti: varchar('jti', { length: 255 }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'smart_assertion_jtis_pk', columns: [t.clientId, t.jti] }),
    index('smart_assertion_jtis_expires_idx').on(t.expiresAt),
  ],
);

/**
 * E-mails waiting for a sender (migration 0034, decision 033). Registration with an e-mail that already has an
 * account queues a `registration_attempt` message to its owner here; no sender is configured yet.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    recipient: varchar('recipient', { length: 254 }).notNull(),
    template: varchar('template', { length: 64 }).notNull(),
    data: jsonb('data'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('mail_outbox_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} IS NULL`),
  ],
);

/**
 * A staff member's change of their own name, waiting for an administrator (migration 0035, issue 21 item 10): the old
 * and the new name, and who decided. At most one pending request per user.
 */
export const staffNameChanges = pgTable(
  'staff_name_changes',
  {
    id: serial('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    oldFirstName: varchar('old_first_name', { length: 100 }).notNull(),
    oldLastName: varchar('old_last_name', { length: 100 }).notNull(),
    firstName: varchar('first_name', { length: 100 }).notNull(),
    lastName: varchar('last_name', { length: 100 }).notNull(),
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decidedBy: text('decided_by'),
  },
  (t) => [
    uniqueIndex('staff_name_changes_one_pending_idx')
      .on(t.userId)
      .where(sql`${t.status} = 'pending'`),
    check('staff_name_changes_status_check', sql`${t.status} IN ('pending', 'approved', 'rejected')`),
  ],
);

/**
 * Every version of every clinical row (issue 23 item 1, migration 0042): the row as it was after each add, edit and
 * entered-in-error, what was done, by whom and which fields changed. The record's history reads it (through the
 * records presenter); a stale edit's 409 names the fields changed since the version it was made from.
 */
export const recordVersions = pgTable(
  'record_versions',
  {
    kind: varchar('kind', { length: 32 }).notNull(),
    itemId: integer('item_id').notNull(),
    version: integer('version').notNull(),
    patientId: patientRef(),
    action: varchar('action', { length: 16 }).notNull(),
    /** Null for the first version of a row stored before versions existed. */
    at: timestamp('at', { withTimezone: true }),
    by: varchar('by', { length: 200 }),
    changed: text('changed').array().notNull(),
    row: jsonb('row').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.itemId, t.version] }), index('record_versions_patient_idx').on(t.patientId)],
);

/**
 * The Idempotency-Keys of record adds (issue 23 item 2, migration 0042): per staff member, the key, a hash of what was
 * asked (kind, patient, body) and the row it created, so the same add sent again answers with that row.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: text('user_id').notNull(),
    key: varchar('key', { length: 36 }).notNull(),
    requestHash: varchar('request_hash', { length: 64 }).notNull(),
    kind: varchar('kind', { length: 32 }).notNull(),
    itemId: integer('item_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);

/**
 * Contraindicated and serious medicine-check warnings a clinician confirmed (decision 043): one row per warning, in
 * the same transaction as the add or edit it allowed, with the override reason a contraindicated one needs. The
 * audit row of the change names the codes (in the chain); the reason text is here, for the privacy/quality review and
 * the monthly report. Clinical content in clear, like the record tables.
 */
export const medicineCheckOverrides = pgTable(
  'medicine_check_overrides',
  {
    id: serial('id').primaryKey(),
    patientId: patientRef(),
    kind: varchar('kind', { length: 32 }).notNull(),
    itemId: integer('item_id').notNull(),
    itemVersion: integer('item_version').notNull(),
    code: varchar('code', { length: 64 }).notNull(),
    tier: varchar('tier', { length: 16 }).notNull(),
    /** The warning's params: both substances, the statement, the rule, the source and the knowledge version. */
    params: jsonb('params').notNull(),
    reason: varchar('reason', { length: 500 }),
    userId: text('user_id').notNull(),
    byName: varchar('by_name', { length: 200 }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('medicine_check_overrides_at_idx').on(t.at), index('medicine_check_overrides_patient_idx').on(t.patientId)],
);

/**
 * Every medicine-check alert shown to a user (decision 045): a 409 of a record add or edit (channel 'record') or a
 * CDS Hooks card (channel 'cds-hooks'), one row per warning or card, written after the refused change rolled back.
 * The monthly report counts these beside the overrides. No patient and no text: what was shown, by code, tier, rule
 * and knowledge version. Not in the audit chain.
 */
export const medicineCheckAlerts = pgTable(
  'medicine_check_alerts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    userId: text('user_id').notNull(),
    channel: varchar('channel', { length: 16 }).notNull(),
    code: varchar('code', { length: 64 }).notNull(),
    tier: varchar('tier', { length: 16 }).notNull(),
    rule: varchar('rule', { length: 100 }),
    knowledgeVersion: varchar('knowledge_version', { length: 64 }),
  },
  (t) => [index('medicine_check_alerts_at_idx').on(t.at)],
);

/**
 * Immunization schedule versions an administrator loaded (issue 25 item 1, decision 044); the newest is current, the
 * shipped file (catalogues/immunization-schedule.json) until there is one. Every version is kept.
 */
export const immunizationSchedules = pgTable('immunization_schedules', {
  id: serial('id').primaryKey(),
  version: varchar('version', { length: 40 }).notNull().unique(),
  title: varchar('title', { length: 200 }).notNull(),
  schedule: jsonb('schedule').notNull(),
  sha256: varchar('sha256', { length: 64 }).notNull(),
  loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
  loadedBy: text('loaded_by').notNull(),
  loadedByName: varchar('loaded_by_name', { length: 200 }).notNull(),
});

/**
 * The defaulter list's index (issue 25 item 3, decision 044): per child, the schedule's next doses of the tracked
 * series not given yet, with the days they are due, overdue and no longer given, and the facility and day of the
 * child's last vaccine visit. Rewritten for a patient whenever their vaccines change, and for everyone when a new
 * schedule is loaded; derived data, never shown without the list's own checks. The index on (facility, due_date)
 * INCLUDEs the state columns (migration 0045; drizzle cannot declare INCLUDE).
 */
export const immunizationDue = pgTable(
  'immunization_due',
  {
    patientId: patientRef(),
    dose: varchar('dose', { length: 16 }).notNull(),
    name: varchar('name', { length: 100 }).notNull(),
    facility: varchar('facility', { length: 200 }).notNull(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    overdueFrom: date('overdue_from', { mode: 'string' }).notNull(),
    missedFrom: date('missed_from', { mode: 'string' }),
    lastVisit: date('last_visit', { mode: 'string' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.patientId, t.dose] }), index('immunization_due_facility_idx').on(t.facility, t.dueDate)],
);

/**
 * Probable duplicate patients found by the matcher (issue 24, docs/decisions/046-duplicate-matcher.md): one row per
 * pair (lower id first), its score, band and the reasons (which fields agreed and how), and the reviewer's decision.
 * A pair decided "different" is never proposed again: the matcher updates only open pairs. The blocking keys'
 * function and GIN index on patients are in migration 0047 (drizzle cannot declare an expression GIN index).
 */
export const duplicatePairs = pgTable(
  'duplicate_pairs',
  {
    id: serial('id').primaryKey(),
    patientA: integer('patient_a')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    patientB: integer('patient_b')
      .notNull()
      .references(() => patients.id, { onDelete: 'cascade' }),
    score: real('score').notNull(),
    band: varchar('band', { length: 16 }).notNull(),
    reasons: jsonb('reasons').notNull(),
    status: varchar('status', { length: 16 }).notNull().default('open'),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull(),
    scoredAt: timestamp('scored_at', { withTimezone: true }).notNull(),
    decidedBy: text('decided_by').references(() => users.id),
    decidedByName: varchar('decided_by_name', { length: 200 }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    decisionReason: varchar('decision_reason', { length: 500 }),
  },
  (t) => [
    uniqueIndex('duplicate_pairs_patients_idx').on(t.patientA, t.patientB),
    index('duplicate_pairs_patient_b_idx').on(t.patientB, t.status),
    index('duplicate_pairs_queue_idx').on(t.status, t.band, t.score),
    check('duplicate_pairs_order', sql`${t.patientA} < ${t.patientB}`),
    check('duplicate_pairs_band', sql`${t.band} IN ('very-likely', 'possible')`),
    check('duplicate_pairs_status', sql`${t.status} IN ('open', 'same', 'different', 'skipped')`),
  ],
);

/**
 * Runs of the registry-wide matcher: the newest row is the current one. Patients are taken in id order in chunks; each
 * chunk's pairs and `last_patient_id` commit together, so a run stopped anywhere resumes after its last chunk. The
 * worker running it holds `owner` and renews `heartbeat_at`; a run whose heartbeat is old may be taken over.
 */
export const duplicateScans = pgTable(
  'duplicate_scans',
  {
    id: serial('id').primaryKey(),
    status: varchar('status', { length: 16 }).notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    startedBy: text('started_by'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    owner: text('owner'),
    lastPatientId: integer('last_patient_id').notNull().default(0),
    maxPatientId: integer('max_patient_id').notNull(),
    total: integer('total').notNull(),
    done: integer('done').notNull().default(0),
    compared: bigint('compared', { mode: 'number' }).notNull().default(0),
    pairs: integer('pairs').notNull().default(0),
    seconds: real('seconds').notNull().default(0),
  },
  (t) => [check('duplicate_scans_status', sql`${t.status} IN ('running', 'paused', 'done')`)],
);

/** The duplicates `npm run seed -- --duplicates R` planted, and the errors made in each: the match benchmark's truth. */
export const seedDuplicates = pgTable('seed_duplicates', {
  duplicateId: integer('duplicate_id').primaryKey(),
  originalId: integer('original_id').notNull(),
  errors: text('errors').notNull(),
});

/**
 * Joins of two records of one person (issue 24, docs/decisions/048-patient-joins.md). A join waits for a second
 * reviewer (`pending`) when the records hold many clinical rows, is `joined`, or `undone`. `keep` is the reviewer's
 * choice per demographic field ({ field: patientId }, and `portal`: whose portal sign-in to keep); `replaced` the
 * survivor's values it overwrote ({ field: { from, to } }), so undo can put them back. Indexes in migration 0048.
 */
export const patientJoins = pgTable(
  'patient_joins',
  {
    id: serial('id').primaryKey(),
    pairId: integer('pair_id').references(() => duplicatePairs.id, { onDelete: 'set null' }),
    survivorId: integer('survivor_id')
      .notNull()
      .references(() => patients.id),
    mergedId: integer('merged_id')
      .notNull()
      .references(() => patients.id),
    status: varchar('status', { length: 16 }).notNull(),
    keep: jsonb('keep').notNull().default({}),
    replaced: jsonb('replaced').notNull().default({}),
    clinicalRows: integer('clinical_rows').notNull().default(0),
    rowsMoved: integer('rows_moved').notNull().default(0),
    reason: varchar('reason', { length: 500 }),
    requestedBy: text('requested_by').references(() => users.id),
    requestedByName: varchar('requested_by_name', { length: 200 }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    approvedBy: text('approved_by').references(() => users.id),
    approvedByName: varchar('approved_by_name', { length: 200 }),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    joinedAt: timestamp('joined_at', { withTimezone: true }),
    undoneBy: text('undone_by').references(() => users.id),
    undoneByName: varchar('undone_by_name', { length: 200 }),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    undoReason: varchar('undo_reason', { length: 500 }),
  },
  (t) => [
    uniqueIndex('patient_joins_live_merged_idx')
      .on(t.mergedId)
      .where(sql`${t.status} IN ('pending', 'joined')`),
    index('patient_joins_survivor_idx').on(t.survivorId),
    index('patient_joins_status_idx').on(t.status, t.requestedAt),
    check('patient_joins_status', sql`${t.status} IN ('pending', 'joined', 'undone')`),
    check('patient_joins_two_patients', sql`${t.survivorId} <> ${t.mergedId}`),
  ],
);

/**
 * The join ledger: each row a join re-pointed from the merged-away patient to the survivor (`moved`, by its primary
 * key), or removed because the survivor already had its like (`removed`, with the whole row in `row_data`).
 * Undo replays it backwards.
 */
export const patientJoinRows = pgTable(
  'patient_join_rows',
  {
    joinId: integer('join_id')
      .notNull()
      .references(() => patientJoins.id),
    tableName: varchar('table_name', { length: 63 }).notNull(),
    columnName: varchar('column_name', { length: 63 }).notNull(),
    action: varchar('action', { length: 16 }).notNull(),
    rowKey: jsonb('row_key').notNull(),
    rowData: jsonb('row_data'),
  },
  (t) => [
    index('patient_join_rows_join_idx').on(t.joinId, t.tableName),
    check('patient_join_rows_action', sql`${t.action} IN ('moved', 'removed')`),
  ],
);

/**
 * Devices offline mode is switched on for (issue 27, decision 061): one browser of one staff member, with the user's
 * facility when it was switched on. A revoked device's next contact answers `revoked` and the client wipes its store.
 */
export const offlineDevices = pgTable(
  'offline_devices',
  {
    id: uuid('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    facility: varchar('facility', { length: 200 }),
    label: varchar('label', { length: 100 }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    lastContactAt: timestamp('last_contact_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: text('revoked_by'),
    revokeReason: varchar('revoke_reason', { length: 500 }),
  },
  (t) => [index('offline_devices_created_idx').on(t.createdAt, t.id), index('offline_devices_user_idx').on(t.userId)],
);

/**
 * Patients registered offline (decision 061): one row per (user, client UUID), claimed by the transaction that stores
 * the patient, so the same registration sent again answers that patient. The row marks the record provisional
 * (registered offline, matched on sync); `review_id` names the review task a likely duplicate opened.
 */
export const offlineRegistrations = pgTable(
  'offline_registrations',
  {
    userId: text('user_id').notNull(),
    clientId: uuid('client_id').notNull(),
    patientId: patientRef(),
    deviceId: uuid('device_id').notNull(),
    deviceTime: timestamp('device_time', { withTimezone: true }).notNull(),
    reviewId: integer('review_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.clientId] }), index('offline_registrations_patient_idx').on(t.patientId)],
);

/**
 * The review tasks sync opened (decision 061): an offline entry stored on a record changed since the device saw it,
 * stored over warnings nobody confirmed, or a patient registered offline who looks like one already known. One per
 * offline write (user, client UUID); closed by a reviewer (patients.merge) with a note.
 */
export const offlineReviews = pgTable(
  'offline_reviews',
  {
    id: serial('id').primaryKey(),
    reason: varchar('reason', { length: 32 }).notNull(),
    patientId: patientRef(),
    kind: varchar('kind', { length: 32 }),
    rowId: integer('row_id'),
    warnings: text('warnings')
      .array()
      .notNull()
      .default(sql`'{}'`),
    userId: text('user_id').notNull(),
    clientId: uuid('client_id').notNull(),
    deviceId: uuid('device_id').notNull(),
    deviceTime: timestamp('device_time', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closedBy: text('closed_by'),
    closeNote: varchar('close_note', { length: 500 }),
  },
  (t) => [
    uniqueIndex('offline_reviews_write_idx').on(t.userId, t.clientId),
    index('offline_reviews_patient_idx').on(t.patientId),
    check(
      'offline_reviews_reason',
      sql`${t.reason} IN ('RECORD_CHANGED_SINCE_SEEN', 'POSSIBLE_DUPLICATE_PATIENT', 'WARNINGS_NOT_CONFIRMED')`,
    ),
  ],
);

/**
 * The ledger of offline opens and discarded writes (decision 061), one row per (user, client UUID, type): an open
 * written to the patient's access history (`open`), one refused for want of a grant (`open-refused`), a queued write
 * the user gave up on (`discard`). A log: `patient_id` keeps the id the device named.
 */
export const offlineEvents = pgTable(
  'offline_events',
  {
    userId: text('user_id').notNull(),
    clientId: uuid('client_id').notNull(),
    type: varchar('type', { length: 16 }).notNull(),
    deviceId: uuid('device_id').notNull(),
    patientId: integer('patient_id'),
    kind: varchar('kind', { length: 32 }),
    deviceTime: timestamp('device_time', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.clientId, t.type] }),
    check('offline_events_type', sql`${t.type} IN ('open', 'open-refused', 'discard')`),
  ],
);
