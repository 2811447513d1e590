-- System clients of the FHIR R4 API (issue 14 item 5, docs/decisions/020-fhir-system-clients.md). A client is a
-- non-interactive staff account (users.account_status 'system', no usable password) of the role "system client",
-- plus this row: its name, SMART scopes and the SHA-256 of its bearer token (the token itself is never stored).
INSERT INTO roles (id, name, display_name, description) VALUES
  (900, 'system_client', 'System client', 'A system that calls the FHIR API with a bearer token; never signs in')
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
-- The most a client may do; each client's account is narrowed to what its scopes need (user_permissions revocations).
INSERT INTO role_permissions (role_id, permission_id)
SELECT 900, p.id FROM permissions p WHERE p.name IN ('patients.search', 'records.read', 'records.write', 'audit.read')
ON CONFLICT (role_id, permission_id) DO NOTHING;
--> statement-breakpoint
CREATE TABLE "api_clients" (
  "id" text PRIMARY KEY NOT NULL,
  "user_id" text NOT NULL REFERENCES "users"("id"),
  "name" varchar(100) NOT NULL,
  "scopes" text[] NOT NULL,
  "token_hash" varchar(64) NOT NULL,
  "created_by" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone,
  "revoked_at" timestamp with time zone,
  "revoked_by" text,
  CONSTRAINT "api_clients_user_id_unique" UNIQUE ("user_id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "api_clients_token_hash_idx" ON "api_clients" USING btree ("token_hash");
