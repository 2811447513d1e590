-- Issue 21 item 12, decision 033: e-mails waiting for a sender. Registration with an e-mail that already has an
-- account answers as for a new one and queues a message to that account's owner here; nothing sends yet.
CREATE TABLE IF NOT EXISTS "mail_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"recipient" varchar(254) NOT NULL,
	"template" varchar(64) NOT NULL,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "mail_outbox_unsent_idx" ON "mail_outbox" USING btree ("created_at") WHERE "sent_at" IS NULL;
