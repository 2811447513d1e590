-- Issue 25 items 4-5 (decision 043): the medicine-check warnings a clinician confirmed, with the override reason a
-- contraindicated one needs.
CREATE TABLE "medicine_check_overrides" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"kind" varchar(32) NOT NULL,
	"item_id" integer NOT NULL,
	"item_version" integer NOT NULL,
	"code" varchar(64) NOT NULL,
	"tier" varchar(16) NOT NULL,
	"params" jsonb NOT NULL,
	"reason" varchar(500),
	"user_id" text NOT NULL,
	"by_name" varchar(200) NOT NULL,
	"at" timestamp with time zone NOT NULL
);--> statement-breakpoint
ALTER TABLE "medicine_check_overrides" ADD CONSTRAINT "medicine_check_overrides_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "medicine_check_overrides_at_idx" ON "medicine_check_overrides" USING btree ("at");--> statement-breakpoint
CREATE INDEX "medicine_check_overrides_patient_idx" ON "medicine_check_overrides" USING btree ("patient_id");
