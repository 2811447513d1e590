-- Issue 25 items 1-3 (decision 044): schedule versions an administrator loaded, the defaulter list's index of each
-- child's outstanding doses, and the permissions to load a schedule and to read a facility's defaulters.
CREATE TABLE "immunization_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" varchar(40) NOT NULL,
	"title" varchar(200) NOT NULL,
	"schedule" jsonb NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"loaded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"loaded_by" text NOT NULL,
	"loaded_by_name" varchar(200) NOT NULL,
	CONSTRAINT "immunization_schedules_version_unique" UNIQUE("version")
);--> statement-breakpoint
CREATE TABLE "immunization_due" (
	"patient_id" integer NOT NULL,
	"dose" varchar(16) NOT NULL,
	"name" varchar(100) NOT NULL,
	"facility" varchar(200) NOT NULL,
	"due_date" date NOT NULL,
	"overdue_from" date NOT NULL,
	"missed_from" date,
	"last_visit" date NOT NULL,
	CONSTRAINT "immunization_due_patient_id_dose_pk" PRIMARY KEY("patient_id","dose")
);--> statement-breakpoint
ALTER TABLE "immunization_due" ADD CONSTRAINT "immunization_due_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- One facility's doses due in a date range, with what the list filters on, from the index alone.
CREATE INDEX "immunization_due_facility_idx" ON "immunization_due" USING btree ("facility", "due_date") INCLUDE ("overdue_from", "missed_from", "patient_id", "dose");--> statement-breakpoint
INSERT INTO permissions (name, display_name, resource, action, description) VALUES
  ('immunizations.schedule', 'Load immunization schedules', 'immunizations', 'schedule', 'Load a new version of the immunization schedule'),
  ('defaulters.read', 'Read defaulter lists', 'defaulters', 'read', 'List the children of one''s facility overdue for a vaccine dose')
ON CONFLICT (name) DO NOTHING;--> statement-breakpoint
INSERT INTO role_permissions (role_id, permission_id)
SELECT m.role_id, p.id
FROM (VALUES (1, 'immunizations.schedule'), (2, 'immunizations.schedule'), (3, 'defaulters.read'), (4, 'defaulters.read')) AS m(role_id, permission_name)
JOIN permissions p ON p.name = m.permission_name
ON CONFLICT (role_id, permission_id) DO NOTHING;
