-- Issue 23 (decision 041): versioned clinical rows. Every record table gets a public UUID, a version, who changed it
-- last and when, entered in error (when, by whom, why: what DELETE does now), the presenter's per-row flag `sealed`,
-- and change_xid, the transaction that last wrote the row (a trigger sets it on every insert and update), which the
-- delta read compares with its cursor. Existing rows become version 1 with a fresh UUID; their first version is kept in
-- record_versions when they are first edited. record_versions holds every version; idempotency_keys the adds' keys.
ALTER TABLE "diagnoses"
  ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "updated_by" varchar(200),
  ADD COLUMN "entered_in_error_at" timestamp with time zone,
  ADD COLUMN "entered_in_error_by" varchar(200),
  ADD COLUMN "entered_in_error_reason" varchar(500),
  ADD COLUMN "sealed" boolean DEFAULT false NOT NULL,
  ADD COLUMN "change_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "diagnoses_uuid_idx" ON "diagnoses" USING btree ("uuid");--> statement-breakpoint
ALTER TABLE "appointments"
  ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "updated_by" varchar(200),
  ADD COLUMN "entered_in_error_at" timestamp with time zone,
  ADD COLUMN "entered_in_error_by" varchar(200),
  ADD COLUMN "entered_in_error_reason" varchar(500),
  ADD COLUMN "sealed" boolean DEFAULT false NOT NULL,
  ADD COLUMN "change_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "appointments_uuid_idx" ON "appointments" USING btree ("uuid");--> statement-breakpoint
ALTER TABLE "allergies"
  ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "updated_by" varchar(200),
  ADD COLUMN "entered_in_error_at" timestamp with time zone,
  ADD COLUMN "entered_in_error_by" varchar(200),
  ADD COLUMN "entered_in_error_reason" varchar(500),
  ADD COLUMN "sealed" boolean DEFAULT false NOT NULL,
  ADD COLUMN "change_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "allergies_uuid_idx" ON "allergies" USING btree ("uuid");--> statement-breakpoint
ALTER TABLE "medications"
  ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "updated_by" varchar(200),
  ADD COLUMN "entered_in_error_at" timestamp with time zone,
  ADD COLUMN "entered_in_error_by" varchar(200),
  ADD COLUMN "entered_in_error_reason" varchar(500),
  ADD COLUMN "sealed" boolean DEFAULT false NOT NULL,
  ADD COLUMN "change_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "medications_uuid_idx" ON "medications" USING btree ("uuid");--> statement-breakpoint
ALTER TABLE "vaccines"
  ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "updated_by" varchar(200),
  ADD COLUMN "entered_in_error_at" timestamp with time zone,
  ADD COLUMN "entered_in_error_by" varchar(200),
  ADD COLUMN "entered_in_error_reason" varchar(500),
  ADD COLUMN "sealed" boolean DEFAULT false NOT NULL,
  ADD COLUMN "change_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "vaccines_uuid_idx" ON "vaccines" USING btree ("uuid");--> statement-breakpoint
ALTER TABLE "vitals"
  ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "updated_by" varchar(200),
  ADD COLUMN "entered_in_error_at" timestamp with time zone,
  ADD COLUMN "entered_in_error_by" varchar(200),
  ADD COLUMN "entered_in_error_reason" varchar(500),
  ADD COLUMN "sealed" boolean DEFAULT false NOT NULL,
  ADD COLUMN "change_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "vitals_uuid_idx" ON "vitals" USING btree ("uuid");--> statement-breakpoint
ALTER TABLE "lab_results"
  ADD COLUMN "uuid" uuid DEFAULT gen_random_uuid() NOT NULL,
  ADD COLUMN "version" integer DEFAULT 1 NOT NULL,
  ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  ADD COLUMN "updated_by" varchar(200),
  ADD COLUMN "entered_in_error_at" timestamp with time zone,
  ADD COLUMN "entered_in_error_by" varchar(200),
  ADD COLUMN "entered_in_error_reason" varchar(500),
  ADD COLUMN "sealed" boolean DEFAULT false NOT NULL,
  ADD COLUMN "change_xid" xid8 DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lab_results_uuid_idx" ON "lab_results" USING btree ("uuid");--> statement-breakpoint
CREATE FUNCTION nhr_record_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.change_xid := pg_current_xact_id();
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "diagnoses_changed" BEFORE UPDATE ON "diagnoses" FOR EACH ROW EXECUTE FUNCTION nhr_record_changed();--> statement-breakpoint
CREATE TRIGGER "appointments_changed" BEFORE UPDATE ON "appointments" FOR EACH ROW EXECUTE FUNCTION nhr_record_changed();--> statement-breakpoint
CREATE TRIGGER "allergies_changed" BEFORE UPDATE ON "allergies" FOR EACH ROW EXECUTE FUNCTION nhr_record_changed();--> statement-breakpoint
CREATE TRIGGER "medications_changed" BEFORE UPDATE ON "medications" FOR EACH ROW EXECUTE FUNCTION nhr_record_changed();--> statement-breakpoint
CREATE TRIGGER "vaccines_changed" BEFORE UPDATE ON "vaccines" FOR EACH ROW EXECUTE FUNCTION nhr_record_changed();--> statement-breakpoint
CREATE TRIGGER "vitals_changed" BEFORE UPDATE ON "vitals" FOR EACH ROW EXECUTE FUNCTION nhr_record_changed();--> statement-breakpoint
CREATE TRIGGER "lab_results_changed" BEFORE UPDATE ON "lab_results" FOR EACH ROW EXECUTE FUNCTION nhr_record_changed();--> statement-breakpoint
CREATE TABLE "record_versions" (
	"kind" varchar(32) NOT NULL,
	"item_id" integer NOT NULL,
	"version" integer NOT NULL,
	"patient_id" integer NOT NULL,
	"action" varchar(16) NOT NULL,
	"at" timestamp with time zone,
	"by" varchar(200),
	"changed" text[] NOT NULL,
	"row" jsonb NOT NULL,
	CONSTRAINT "record_versions_kind_item_id_version_pk" PRIMARY KEY("kind","item_id","version")
);
--> statement-breakpoint
ALTER TABLE "record_versions" ADD CONSTRAINT "record_versions_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "record_versions_patient_idx" ON "record_versions" USING btree ("patient_id");--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" text NOT NULL,
	"key" varchar(36) NOT NULL,
	"request_hash" varchar(64) NOT NULL,
	"kind" varchar(32) NOT NULL,
	"item_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");
