-- Issue 26 item 5 (decision 050): SMART Backend Services. A system client may register its public keys (a JWKS) and
-- have limits of its own (searches per minute, record openings per hour; null: the server's defaults). Access tokens
-- issued at the token endpoint are short-lived rows of their own (their SHA-256, the client, the granted scopes); the
-- jti of every accepted client assertion is kept until the assertion's exp, so an assertion is never accepted twice.
ALTER TABLE "api_clients" ADD COLUMN "jwks" jsonb;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "searches_per_minute" integer;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "openings_per_hour" integer;--> statement-breakpoint
CREATE TABLE "smart_access_tokens" (
  "token_hash" varchar(64) PRIMARY KEY NOT NULL,
  "client_id" text NOT NULL REFERENCES "api_clients"("id"),
  "scopes" text[] NOT NULL,
  "issued_at" timestamp with time zone NOT NULL,
  "expires_at" timestamp with time zone NOT NULL
);--> statement-breakpoint
CREATE INDEX "smart_access_tokens_expires_idx" ON "smart_access_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE TABLE "smart_assertion_jtis" (
  "client_id" text NOT NULL REFERENCES "api_clients"("id"),
  "jti" varchar(255) NOT NULL,
  "expires_at" timestamp with time zone NOT NULL,
  CONSTRAINT "smart_assertion_jtis_pk" PRIMARY KEY ("client_id", "jti")
);--> statement-breakpoint
CREATE INDEX "smart_assertion_jtis_expires_idx" ON "smart_assertion_jtis" USING btree ("expires_at");
