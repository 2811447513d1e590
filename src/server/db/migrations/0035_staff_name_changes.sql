-- Issue 21 item 10, decision 033 amendment in 035: a staff member's change of their own name waits for an
-- administrator's approval; the request keeps the old and the new name and who decided.
CREATE TABLE IF NOT EXISTS "staff_name_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"old_first_name" varchar(100) NOT NULL,
	"old_last_name" varchar(100) NOT NULL,
	"first_name" varchar(100) NOT NULL,
	"last_name" varchar(100) NOT NULL,
	"status" varchar(16) DEFAULT 'pending' NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "staff_name_changes_status_check" CHECK ("staff_name_changes"."status" IN ('pending', 'approved', 'rejected'))
);
--> statement-breakpoint
ALTER TABLE "staff_name_changes" ADD CONSTRAINT "staff_name_changes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX IF NOT EXISTS "staff_name_changes_one_pending_idx" ON "staff_name_changes" USING btree ("user_id") WHERE "staff_name_changes"."status" = 'pending';
