-- Staff second factor (issue 12 items 2-4, docs/decisions/024-staff-second-factor.md): TOTP secrets, hashed
-- recovery codes, the short-lived challenge between the password and the second factor, the per-role policy, and
-- when each session last proved a second factor (break-the-glass re-authentication).
CREATE TABLE "staff_totp" (
  "user_id" text PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "secret" varchar(64) NOT NULL,
  "enabled_at" timestamp with time zone,
  "last_step" bigint DEFAULT 0 NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "staff_recovery_codes" (
  "id" serial PRIMARY KEY NOT NULL,
  "user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "code_hash" varchar(64) NOT NULL,
  "used_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "staff_recovery_codes_user_idx" ON "staff_recovery_codes" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "staff_sign_in_challenges" (
  "token_hash" varchar(64) PRIMARY KEY NOT NULL,
  "user_id" text NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "purpose" varchar(16) NOT NULL,
  "created_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  CONSTRAINT "staff_sign_in_challenges_purpose_check" CHECK ("purpose" IN ('second_factor', 'enrol'))
);--> statement-breakpoint
CREATE TABLE "session_reauth" (
  "sid" varchar(64) PRIMARY KEY NOT NULL REFERENCES "sessions"("sid") ON DELETE cascade,
  "verified_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE TABLE "mfa_role_policy" (
  "role_id" integer PRIMARY KEY NOT NULL REFERENCES "roles"("id") ON DELETE cascade,
  "policy" varchar(16) NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_by" text,
  CONSTRAINT "mfa_role_policy_policy_check" CHECK ("policy" IN ('optional', 'once_enrolled', 'required'))
);--> statement-breakpoint
-- Defaults (decision 024): administrators, auditors and every clinical role keep the second factor once enrolled;
-- the receptionist may switch it off. An administrator raises a role to 'required' (enrolment at next sign-in).
INSERT INTO "mfa_role_policy" ("role_id", "policy")
SELECT r.id, CASE WHEN r.id = 5 THEN 'optional' ELSE 'once_enrolled' END FROM "roles" r
ON CONFLICT ("role_id") DO NOTHING;
