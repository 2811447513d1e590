-- Issue 11, decision 028: the grant-volume count (break-the-glass re-authentication and GRANT_VOLUME_ALERT) counts
-- the user's access_grants of the last hour through this index, instead of the audit rows of the last hour. Each grant
-- is stored with its audit row by one statement, so the two counts are the same; the audit count's plan depended on
-- how fresh the statistics were (45 ms on a database whose last-hour rows the planner had not seen).
CREATE INDEX IF NOT EXISTS "access_grants_user_granted_idx" ON "access_grants" USING btree ("user_id", "granted_at");
