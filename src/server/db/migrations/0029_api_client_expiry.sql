-- System client tokens expire (decision 030): each token has an expiry, chosen when it is issued (30, 90 or 365 days).
-- Clients created before this migration keep their token for 90 days from now, so no integration stops at once and
-- each gets a new token (Issue a new token) within that time.
ALTER TABLE "api_clients" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
UPDATE "api_clients" SET "expires_at" = now() + interval '90 days';--> statement-breakpoint
ALTER TABLE "api_clients" ALTER COLUMN "expires_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "api_clients" ADD COLUMN "token_issued_at" timestamp with time zone;--> statement-breakpoint
UPDATE "api_clients" SET "token_issued_at" = "created_at";--> statement-breakpoint
ALTER TABLE "api_clients" ALTER COLUMN "token_issued_at" SET NOT NULL;
