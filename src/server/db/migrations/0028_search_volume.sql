-- Issue 11, docs/decisions/028-cached-actor-confirmed-in-statement.md: the bulk-search check without reading audit rows.
--
-- The check (decision 011) counted the distinct patients in the patientIds of the user's latest 300 SEARCH rows on
-- every search that could cross the threshold: 3-5 ms of the database's time per search for a busy user who had not
-- been alerted (a ward clerk, the benchmark's doctor), more than the search itself. Now each search records the
-- patients it found in search_volume (one row per user and patient, with when it was last found), and the count is
-- of that user's rows found within the window: an index range of at most the threshold plus this search's results
-- while no alert is open. The count is exactly the rule's ("more than N distinct patients within M minutes"), with
-- no 300-search horizon. Rows older than the window are deleted now and then by the same function.
CREATE TABLE "search_volume" (
	"user_id" text NOT NULL,
	"patient_id" integer NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	CONSTRAINT "search_volume_pkey" PRIMARY KEY("user_id","patient_id")
);--> statement-breakpoint
DROP FUNCTION IF EXISTS nhr_bulk_search_check(text, integer[], integer, integer, integer, integer, text, text, text, text, text);--> statement-breakpoint
-- p_ids: the patients this search found. Records them (in id order, so two searches of one user lock the same rows
-- in the same order), then, unless the user already has an alert in the window or this search found nobody, counts
-- the user's patients found within the window and writes a BULK_SEARCH_ALERT when they are more than p_threshold.
-- Returns whether it wrote one.
CREATE FUNCTION nhr_bulk_search_check(
  p_user_id text, p_ids integer[], p_minutes integer, p_threshold integer,
  p_user_name text, p_facility text, p_ip text, p_user_agent text, p_description text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  since timestamptz := now() - make_interval(mins => p_minutes);
  n integer;
BEGIN
  IF cardinality(p_ids) = 0 THEN
    RETURN false;
  END IF;
  INSERT INTO search_volume AS v (user_id, patient_id, last_seen)
  SELECT p_user_id, f.id, now() FROM (SELECT DISTINCT unnest(p_ids) AS id) AS f ORDER BY f.id
  ON CONFLICT (user_id, patient_id) DO UPDATE SET last_seen = excluded.last_seen;
  IF random() < 0.02 THEN
    DELETE FROM search_volume WHERE user_id = p_user_id AND last_seen <= since;
  END IF;
  IF EXISTS (SELECT 1 FROM security_events e
             WHERE e.event_type = 'BULK_SEARCH_ALERT' AND e.user_id = p_user_id AND e.timestamp > since) THEN
    RETURN false;
  END IF;
  SELECT count(*) INTO n FROM search_volume WHERE user_id = p_user_id AND last_seen > since;
  IF n <= p_threshold THEN
    RETURN false;
  END IF;
  INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata, facility)
  VALUES (p_user_id, 'BULK_SEARCH_ALERT', 'HIGH', p_description, p_ip, p_user_agent,
          jsonb_build_object('count', n, 'threshold', p_threshold, 'minutes', p_minutes, 'userName', p_user_name), p_facility);
  RETURN true;
END;
$$;
