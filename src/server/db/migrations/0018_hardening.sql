-- Issue 10 items 1, 2, 3 and 8 (docs/decisions/011-rate-limits-and-volume-alerts.md, 012-audit-checkpoints-and-digest.md).
-- Rate-limit counters shared by every process (fixed windows; @fastify/rate-limit's store in src/server/http/rate-limit-store.ts).
CREATE TABLE "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"reset_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_hits_reset_idx" ON "rate_limit_hits" USING btree ("reset_at");--> statement-breakpoint
-- Audit checkpoints: the number of chains and each chain's head (position + hash) at a moment; the verifier
-- compares the chains with the latest one, so truncation and wholesale deletion of chains are named.
CREATE TABLE "audit_checkpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"chain_count" smallint NOT NULL,
	"heads" jsonb NOT NULL
);
--> statement-breakpoint
-- Reports: whether any detail list was capped (the summary is always exact), and archiving by an authorised user
-- as a row of its own (compliance_reports stays insert-only for the application role: docs/security/audit-append-only.sql).
ALTER TABLE "compliance_reports" ADD COLUMN "details_capped" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "compliance_reports_generated_idx" ON "compliance_reports" USING btree ("generated_at" DESC, "id" DESC);--> statement-breakpoint
CREATE TABLE "compliance_report_archives" (
	"report_id" integer PRIMARY KEY NOT NULL REFERENCES "compliance_reports" ("id"),
	"archived_at" timestamp with time zone DEFAULT now() NOT NULL,
	"archived_by" varchar(256) NOT NULL,
	"archived_by_user_id" text NOT NULL
);
