-- Passkeys (WebAuthn) for staff and patients (issue 12 item 2, docs/decisions/026-passkeys.md): each credential
-- belongs to exactly one staff user or one patient; each challenge is stored server-side, expires after 5 minutes
-- and is deleted when it is used, so it works once.
CREATE TABLE "webauthn_credentials" (
  "id" varchar(512) PRIMARY KEY NOT NULL,
  "user_id" text REFERENCES "users"("id") ON DELETE cascade,
  "patient_id" integer REFERENCES "patients"("id") ON DELETE cascade,
  "public_key" text NOT NULL,
  "counter" bigint DEFAULT 0 NOT NULL,
  "transports" varchar(200),
  "name" varchar(64) NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone,
  CONSTRAINT "webauthn_credentials_owner_check" CHECK (("user_id" IS NULL) <> ("patient_id" IS NULL))
);--> statement-breakpoint
CREATE INDEX "webauthn_credentials_user_idx" ON "webauthn_credentials" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "webauthn_credentials_patient_idx" ON "webauthn_credentials" USING btree ("patient_id");--> statement-breakpoint
CREATE TABLE "webauthn_challenges" (
  "challenge" varchar(128) PRIMARY KEY NOT NULL,
  "purpose" varchar(16) NOT NULL,
  "user_id" text REFERENCES "users"("id") ON DELETE cascade,
  "patient_id" integer REFERENCES "patients"("id") ON DELETE cascade,
  "sid" varchar(64) REFERENCES "sessions"("sid") ON DELETE cascade,
  "created_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  CONSTRAINT "webauthn_challenges_purpose_check" CHECK ("purpose" IN ('register', 'sign_in', 'second_factor', 'reauth'))
);--> statement-breakpoint
CREATE INDEX "webauthn_challenges_expires_idx" ON "webauthn_challenges" USING btree ("expires_at");
