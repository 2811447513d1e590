-- Issue 24 items 1-3 (decision 046): the registry-wide matcher's blocking keys, the pairs it proposes with their
-- score, band, reasons and the reviewer's decision, the scan's checkpoint, and the duplicates a synthetic seed planted
-- (the benchmark's truth).
--
-- The blocking keys of a patient: two records are compared only when they share one. Phonetic codes (double
-- metaphone of the normalized names) with the date of birth, so typos, sound-alike spellings, swapped names, a changed
-- surname or first name and each kind of date-of-birth slip still meet under one key:
--   c: a name's code (first or last: swapped names meet) + the date of birth with day and month in order
--      (day and month swapped meet): a first name misspelled, missing or different, a married or misspelled surname
--   n: both codes in order + birth year      (a digit of the day or month off)
--   m: both codes in order + month and day   (the year one off, or a digit of it)
--   p: the surname's code + year and month   (a first name missing and a digit of the day off)
--   x: both codes in order, no date of birth (records without one)
-- Takes the normalized names (patients.first_name_norm, last_name_norm): unaccenting every row again is slow.
CREATE OR REPLACE FUNCTION nhr_match_keys(first_norm text, last_norm text, dob date) RETURNS text[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$
    SELECT array_remove(ARRAY[
      CASE WHEN f <> '' AND dob IS NOT NULL THEN 'c' || f || d END,
      CASE WHEN l <> '' AND l <> f AND dob IS NOT NULL THEN 'c' || l || d END,
      CASE WHEN f <> '' AND l <> '' AND dob IS NOT NULL THEN 'n' || least(f, l) || '.' || greatest(f, l) || y END,
      CASE WHEN f <> '' AND l <> '' AND dob IS NOT NULL THEN 'm' || least(f, l) || '.' || greatest(f, l) || md END,
      CASE WHEN l <> '' AND dob IS NOT NULL THEN 'p' || l || ym END,
      CASE WHEN f <> '' AND l <> '' AND dob IS NULL THEN 'x' || least(f, l) || '.' || greatest(f, l) END
    ], NULL)
      FROM (SELECT coalesce(public.nhr_dmetaphone(first_norm), '') AS f, coalesce(public.nhr_dmetaphone(last_norm), '') AS l,
                   to_char(dob, 'YYYY') AS y, to_char(dob, 'MMDD') AS md, to_char(dob, 'YYYYMM') AS ym,
                   to_char(dob, 'YYYY') || least(to_char(dob, 'MMDD'), to_char(dob, 'DDMM')) AS d) AS codes
  $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS patients_match_keys_idx ON patients USING gin (nhr_match_keys(first_name_norm, last_name_norm, date_of_birth));
--> statement-breakpoint
CREATE TABLE "duplicate_pairs" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_a" integer NOT NULL,
	"patient_b" integer NOT NULL,
	"score" real NOT NULL,
	"band" varchar(16) NOT NULL,
	"reasons" jsonb NOT NULL,
	"status" varchar(16) DEFAULT 'open' NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	"scored_at" timestamp with time zone NOT NULL,
	"decided_by" text,
	"decided_by_name" varchar(200),
	"decided_at" timestamp with time zone,
	"decision_reason" varchar(500),
	CONSTRAINT "duplicate_pairs_order" CHECK ("patient_a" < "patient_b"),
	CONSTRAINT "duplicate_pairs_band" CHECK ("band" IN ('very-likely', 'possible')),
	CONSTRAINT "duplicate_pairs_status" CHECK ("status" IN ('open', 'same', 'different', 'skipped'))
);--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_patient_a_patients_id_fk" FOREIGN KEY ("patient_a") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_patient_b_patients_id_fk" FOREIGN KEY ("patient_b") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "duplicate_pairs" ADD CONSTRAINT "duplicate_pairs_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "duplicate_pairs_patients_idx" ON "duplicate_pairs" USING btree ("patient_a","patient_b");--> statement-breakpoint
CREATE INDEX "duplicate_pairs_patient_b_idx" ON "duplicate_pairs" USING btree ("patient_b");--> statement-breakpoint
CREATE INDEX "duplicate_pairs_queue_idx" ON "duplicate_pairs" USING btree ("status","band","score");--> statement-breakpoint
CREATE TABLE "duplicate_scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"status" varchar(16) NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"started_by" text,
	"heartbeat_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"owner" text,
	"last_patient_id" integer DEFAULT 0 NOT NULL,
	"max_patient_id" integer NOT NULL,
	"total" integer NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"compared" bigint DEFAULT 0 NOT NULL,
	"pairs" integer DEFAULT 0 NOT NULL,
	"seconds" real DEFAULT 0 NOT NULL,
	CONSTRAINT "duplicate_scans_status" CHECK ("status" IN ('running', 'paused', 'done'))
);--> statement-breakpoint
CREATE TABLE "seed_duplicates" (
	"duplicate_id" integer PRIMARY KEY NOT NULL,
	"original_id" integer NOT NULL,
	"errors" text NOT NULL
);
--> statement-breakpoint
-- patients.merge: reviewing possible duplicates (and, later, joining them). Administrators and the new Health
-- Information Officer role, who keeps the registry clean (and may search it to check a pair).
INSERT INTO roles (id, name, display_name, description) VALUES
  (7, 'health_information_officer', 'Health Information Officer', 'Reviews possible duplicate patient records')
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
INSERT INTO permissions (name, display_name, resource, action, description) VALUES
  ('patients.merge', 'Review duplicate patients', 'patients', 'merge', 'Review possible duplicate patient records and decide on them')
ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
INSERT INTO role_permissions (role_id, permission_id)
SELECT m.role_id, p.id
FROM (VALUES (1, 'patients.merge'), (2, 'patients.merge'), (7, 'patients.merge'), (7, 'patients.search')) AS m(role_id, permission_name)
JOIN permissions p ON p.name = m.permission_name
ON CONFLICT (role_id, permission_id) DO NOTHING;
