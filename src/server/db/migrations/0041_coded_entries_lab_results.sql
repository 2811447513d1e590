-- Issue 22: coded entries (code, code system and the catalogue's display; null for free text, so existing rows stay
-- valid as uncoded) and the laboratory results kind.
ALTER TABLE "diagnoses" ADD COLUMN "code" varchar(32);--> statement-breakpoint
ALTER TABLE "diagnoses" ADD COLUMN "code_system" varchar(200);--> statement-breakpoint
ALTER TABLE "diagnoses" ADD COLUMN "code_display" varchar(300);--> statement-breakpoint
ALTER TABLE "allergies" ADD COLUMN "code" varchar(32);--> statement-breakpoint
ALTER TABLE "allergies" ADD COLUMN "code_system" varchar(200);--> statement-breakpoint
ALTER TABLE "allergies" ADD COLUMN "code_display" varchar(300);--> statement-breakpoint
ALTER TABLE "medications" ADD COLUMN "code" varchar(32);--> statement-breakpoint
ALTER TABLE "medications" ADD COLUMN "code_system" varchar(200);--> statement-breakpoint
ALTER TABLE "medications" ADD COLUMN "code_display" varchar(300);--> statement-breakpoint
ALTER TABLE "vaccines" ADD COLUMN "code" varchar(32);--> statement-breakpoint
ALTER TABLE "vaccines" ADD COLUMN "code_system" varchar(200);--> statement-breakpoint
ALTER TABLE "vaccines" ADD COLUMN "code_display" varchar(300);--> statement-breakpoint
CREATE TABLE "lab_results" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"name" varchar(200) NOT NULL,
	"code" varchar(32),
	"code_system" varchar(200),
	"code_display" varchar(300),
	"value" jsonb NOT NULL,
	"unit" varchar(32),
	"reference_low" numeric,
	"reference_high" numeric,
	"collected_date" date NOT NULL,
	"status" varchar(16) NOT NULL,
	"facility" varchar(200) NOT NULL,
	"abnormal_flag" varchar(2),
	"entered_by" varchar(200) NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_results" ADD CONSTRAINT "lab_results_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lab_results_patient_idx" ON "lab_results" USING btree ("patient_id","collected_date");
