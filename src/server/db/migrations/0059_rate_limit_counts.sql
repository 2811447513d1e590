-- Rate limits counted per database session (issue 29 item 2; decision 059, revised): one counter row per key, window
-- and backend (pg_backend_pid()), upserted by the counted request, and a limit sums its key's rows of the window. A
-- backend runs one transaction at a time, so no two transactions ever want the same counter row: one user's parallel
-- requests never wait on each other (as they did on rate_limit_hits' one row per key), and the check reads at most as
-- many rows as there are database sessions, where 0055's one row per counted request made it read every request of
-- the window (at most `max`: cheap at 30 searches a minute, but the work grew with each user's rate).
CREATE TABLE "rate_limit_counts" (
	"key" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"backend" integer NOT NULL,
	"hits" integer NOT NULL,
	CONSTRAINT "rate_limit_counts_pkey" PRIMARY KEY("key","window_start","backend")
);
--> statement-breakpoint
CREATE INDEX "rate_limit_counts_window_start_idx" ON "rate_limit_counts" USING btree ("window_start");--> statement-breakpoint
DROP TABLE "rate_limit_requests";
