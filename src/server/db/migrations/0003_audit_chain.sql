CREATE TABLE "audit_chain_head" (
	"id" smallint PRIMARY KEY NOT NULL,
	"last_id" integer NOT NULL,
	"last_hash" varchar(64) NOT NULL,
	"prev_hash" varchar(64) NOT NULL,
	CONSTRAINT "audit_chain_head_single_row" CHECK ("audit_chain_head"."id" = 1)
);
--> statement-breakpoint
CREATE INDEX "audit_logs_action_idx" ON "audit_logs" USING btree ("action","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_break_glass_idx" ON "audit_logs" USING btree ("timestamp") WHERE "audit_logs"."compliance_flags" ->> 'type' = 'BREAK_GLASS';--> statement-breakpoint
-- The chain head starts at the genesis hash (64 zeros), or continues from an existing log's last row.
INSERT INTO "audit_chain_head" ("id", "last_id", "last_hash", "prev_hash")
SELECT 1,
  coalesce((SELECT max("id") FROM "audit_logs"), 0),
  coalesce((SELECT "hash" FROM "audit_logs" ORDER BY "id" DESC LIMIT 1), repeat('0', 64)),
  coalesce((SELECT "prev_hash" FROM "audit_logs" ORDER BY "id" DESC LIMIT 1), repeat('0', 64));
