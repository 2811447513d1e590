-- Archiving a compliance report can be undone (issue 21 item 15): compliance_report_archives becomes a log of
-- archive and restore events, still insert-only for the application role (docs/security/audit-append-only.sql).
-- A report's state is its latest event; rows from before this migration are archive events.
ALTER TABLE "compliance_report_archives" DROP CONSTRAINT "compliance_report_archives_pkey";--> statement-breakpoint
ALTER TABLE "compliance_report_archives" ADD COLUMN "id" serial PRIMARY KEY NOT NULL;--> statement-breakpoint
ALTER TABLE "compliance_report_archives" ADD COLUMN "archived" boolean DEFAULT true NOT NULL;--> statement-breakpoint
CREATE INDEX "compliance_report_archives_report_idx" ON "compliance_report_archives" USING btree ("report_id", "id" DESC);
