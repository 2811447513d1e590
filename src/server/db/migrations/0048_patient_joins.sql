-- Issue 24 items 4-8 (decision 048): joining two records of one person, reversibly. The merged-away record stays,
-- inactive, with replaced_by pointing at the survivor. patient_joins holds each join (pending a second reviewer,
-- joined, or undone), the demographic values chosen and the survivor's values they replaced; patient_join_rows is the
-- ledger: every row re-pointed from the merged-away patient to the survivor (by table, column and primary key), and
-- every row removed because the survivor already had one like it (with the whole row, so undo can put it back).
ALTER TABLE "patients" ADD COLUMN "replaced_by" integer REFERENCES "patients"("id");--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "replaced_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "patients_replaced_by_idx" ON "patients" USING btree ("replaced_by") WHERE "replaced_by" IS NOT NULL;--> statement-breakpoint
CREATE TABLE "patient_joins" (
  "id" serial PRIMARY KEY NOT NULL,
  "pair_id" integer REFERENCES "duplicate_pairs"("id") ON DELETE SET NULL,
  "survivor_id" integer NOT NULL REFERENCES "patients"("id"),
  "merged_id" integer NOT NULL REFERENCES "patients"("id"),
  "status" varchar(16) NOT NULL,
  "keep" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "replaced" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "clinical_rows" integer DEFAULT 0 NOT NULL,
  "rows_moved" integer DEFAULT 0 NOT NULL,
  "reason" varchar(500),
  "requested_by" text REFERENCES "users"("id"),
  "requested_by_name" varchar(200),
  "requested_at" timestamp with time zone NOT NULL,
  "approved_by" text REFERENCES "users"("id"),
  "approved_by_name" varchar(200),
  "approved_at" timestamp with time zone,
  "joined_at" timestamp with time zone,
  "undone_by" text REFERENCES "users"("id"),
  "undone_by_name" varchar(200),
  "undone_at" timestamp with time zone,
  "undo_reason" varchar(500),
  CONSTRAINT "patient_joins_status" CHECK ("status" IN ('pending', 'joined', 'undone')),
  CONSTRAINT "patient_joins_two_patients" CHECK ("survivor_id" <> "merged_id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "patient_joins_live_merged_idx" ON "patient_joins" USING btree ("merged_id") WHERE "status" IN ('pending', 'joined');--> statement-breakpoint
CREATE INDEX "patient_joins_survivor_idx" ON "patient_joins" USING btree ("survivor_id");--> statement-breakpoint
CREATE INDEX "patient_joins_status_idx" ON "patient_joins" USING btree ("status", "requested_at");--> statement-breakpoint
CREATE TABLE "patient_join_rows" (
  "join_id" integer NOT NULL REFERENCES "patient_joins"("id"),
  "table_name" varchar(63) NOT NULL,
  "column_name" varchar(63) NOT NULL,
  "action" varchar(16) NOT NULL,
  "row_key" jsonb NOT NULL,
  "row_data" jsonb,
  CONSTRAINT "patient_join_rows_action" CHECK ("action" IN ('moved', 'removed'))
);--> statement-breakpoint
CREATE INDEX "patient_join_rows_join_idx" ON "patient_join_rows" USING btree ("join_id", "table_name");
