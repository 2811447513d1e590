CREATE TABLE "audit_chain_head" (
	"chain" smallint PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	"last_id" bigint,
	"last_hash" varchar(64) NOT NULL,
	"prev_hash" varchar(64) NOT NULL,
	CONSTRAINT "audit_chain_head_chain" CHECK ("audit_chain_head"."chain" >= 1)
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER SEQUENCE "audit_logs_id_seq" AS bigint;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "chain" smallint NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "chain_seq" bigint NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_logs_chain_seq_idx" ON "audit_logs" USING btree ("chain","chain_seq");--> statement-breakpoint
CREATE INDEX "audit_logs_action_idx" ON "audit_logs" USING btree ("action","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_break_glass_idx" ON "audit_logs" USING btree ("timestamp") WHERE "audit_logs"."compliance_flags" ->> 'type' = 'BREAK_GLASS';--> statement-breakpoint
-- 16 chains (AUDIT_CHAINS in src/server/audit/audit-hash.ts), each starting at the genesis hash (64 zeros).
INSERT INTO "audit_chain_head" ("chain", "last_seq", "last_id", "last_hash", "prev_hash")
SELECT g, 0, NULL, repeat('0', 64), repeat('0', 64) FROM generate_series(1, 16) AS g;
