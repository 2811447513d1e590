-- Staff identity (issue 3): the sign-in throttle counts security_events by subject (e-mail) and by IP; indexes for the
-- per-request permission read (user_permissions) and for session bookkeeping (user_sessions).
ALTER TABLE "security_events" ADD COLUMN "subject" varchar(254);--> statement-breakpoint
CREATE INDEX "security_events_subject_time_idx" ON "security_events" USING btree ("subject","timestamp") WHERE "security_events"."subject" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "security_events_ip_time_idx" ON "security_events" USING btree ("ip_address","timestamp") WHERE "security_events"."subject" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "user_permissions_user_idx" ON "user_permissions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_sessions_session_idx" ON "user_sessions" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "user_sessions_user_idx" ON "user_sessions" USING btree ("user_id");