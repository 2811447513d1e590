-- Offline clinic mode (issue 27, decision 061): the devices a staff member switched offline mode on for; the patients
-- registered offline (one row per client UUID: the registration's idempotency, and the marker that the record is
-- provisional, registered offline and checked by the matcher on sync); the review tasks sync opened; and the ledger of
-- the offline opens and discarded writes (idempotent by client UUID). The facility's appointments of the next days are
-- read by (facility, date).
CREATE TABLE "offline_devices" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"facility" varchar(200),
	"label" varchar(100) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_contact_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_by" text,
	"revoke_reason" varchar(500)
);--> statement-breakpoint
ALTER TABLE "offline_devices" ADD CONSTRAINT "offline_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_devices_created_idx" ON "offline_devices" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "offline_devices_user_idx" ON "offline_devices" USING btree ("user_id");--> statement-breakpoint
CREATE TABLE "offline_registrations" (
	"user_id" text NOT NULL,
	"client_id" uuid NOT NULL,
	"patient_id" integer NOT NULL,
	"device_id" uuid NOT NULL,
	"device_time" timestamp with time zone NOT NULL,
	"review_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_registrations_user_id_client_id_pk" PRIMARY KEY("user_id","client_id")
);--> statement-breakpoint
ALTER TABLE "offline_registrations" ADD CONSTRAINT "offline_registrations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offline_registrations_patient_idx" ON "offline_registrations" USING btree ("patient_id");--> statement-breakpoint
CREATE TABLE "offline_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"reason" varchar(32) NOT NULL,
	"patient_id" integer NOT NULL,
	"kind" varchar(32),
	"row_id" integer,
	"warnings" text[] DEFAULT '{}' NOT NULL,
	"user_id" text NOT NULL,
	"client_id" uuid NOT NULL,
	"device_id" uuid NOT NULL,
	"device_time" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"closed_by" text,
	"close_note" varchar(500),
	CONSTRAINT "offline_reviews_reason" CHECK ("reason" IN ('RECORD_CHANGED_SINCE_SEEN', 'POSSIBLE_DUPLICATE_PATIENT', 'WARNINGS_NOT_CONFIRMED'))
);--> statement-breakpoint
ALTER TABLE "offline_reviews" ADD CONSTRAINT "offline_reviews_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "offline_reviews_write_idx" ON "offline_reviews" USING btree ("user_id","client_id");--> statement-breakpoint
CREATE INDEX "offline_reviews_patient_idx" ON "offline_reviews" USING btree ("patient_id");--> statement-breakpoint
CREATE TABLE "offline_events" (
	"user_id" text NOT NULL,
	"client_id" uuid NOT NULL,
	"type" varchar(16) NOT NULL,
	"device_id" uuid NOT NULL,
	"patient_id" integer,
	"kind" varchar(32),
	"device_time" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "offline_events_user_id_client_id_type_pk" PRIMARY KEY("user_id","client_id","type"),
	CONSTRAINT "offline_events_type" CHECK ("type" IN ('open', 'open-refused', 'discard'))
);--> statement-breakpoint
CREATE INDEX "appointments_facility_date_idx" ON "appointments" USING btree ("facility","date");
