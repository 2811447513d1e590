-- Desk activation codes for a portal that is already active (issue 21 item 1, docs/decisions/031-portal-reset.md):
-- such a code needs the patient's current PIN when it is used, unless a second staff member confirmed the reset
-- (two-person rule). Where and by what browser the code was issued, for the alert on a desk activating its own code;
-- the notice the patient sees at the next sign-in after a confirmed reset.
ALTER TABLE "patient_portal_credentials" ADD COLUMN "code_needs_current_pin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "patient_portal_credentials" ADD COLUMN "code_issued_ip" varchar(64);--> statement-breakpoint
ALTER TABLE "patient_portal_credentials" ADD COLUMN "code_issued_user_agent" text;--> statement-breakpoint
ALTER TABLE "patient_portal_credentials" ADD COLUMN "reset_confirmed_by" text;--> statement-breakpoint
ALTER TABLE "patient_portal_credentials" ADD COLUMN "reset_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patient_portal_credentials" ADD COLUMN "reset_notice" jsonb;--> statement-breakpoint
ALTER TABLE "patient_portal_credentials" ADD COLUMN "suspect_session" varchar(64);--> statement-breakpoint
ALTER TABLE "patient_portal_credentials" ADD COLUMN "suspect_issuer" text;
