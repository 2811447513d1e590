-- Issue 26 items 1 and 2 (decision 049): faithful FHIR creates, and laboratory reports. Every coded kind keeps the codings an entry was sent with,
-- as sent (system, code, display): a SNOMED CT or IPS code beside, or instead of, the catalogue's. Null for entries
-- that came with none (every entry stored before, and every entry from the staff screens).
ALTER TABLE "diagnoses" ADD COLUMN "codings" jsonb;--> statement-breakpoint
ALTER TABLE "allergies" ADD COLUMN "codings" jsonb;--> statement-breakpoint
ALTER TABLE "medications" ADD COLUMN "codings" jsonb;--> statement-breakpoint
ALTER TABLE "vaccines" ADD COLUMN "codings" jsonb;--> statement-breakpoint
ALTER TABLE "lab_results" ADD COLUMN "codings" jsonb;--> statement-breakpoint
-- Issue 26 item 2: a laboratory report (FHIR DiagnosticReport) groups results; it is kept on each of its results.
ALTER TABLE "lab_results" ADD COLUMN "report" jsonb;
