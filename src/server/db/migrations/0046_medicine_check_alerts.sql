-- Issue 25 item 5 (docs/decisions/045-medicine-check-report-and-cds-hooks.md): every medicine-check alert shown to a
-- user (a 409 of a record add or edit, or a CDS Hooks card), counted for the monthly report. What was shown, not to
-- whom about whom: no patient, no text, only the code, tier, rule and knowledge version. Not in the audit chain.
CREATE TABLE "medicine_check_alerts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"user_id" text NOT NULL,
	"channel" varchar(16) NOT NULL,
	"code" varchar(64) NOT NULL,
	"tier" varchar(16) NOT NULL,
	"rule" varchar(100),
	"knowledge_version" varchar(64)
);--> statement-breakpoint
CREATE INDEX "medicine_check_alerts_at_idx" ON "medicine_check_alerts" USING btree ("at");
