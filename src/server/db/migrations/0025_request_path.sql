-- Issue 11, docs/decisions/014-request-path.md.
--
-- 1. The hot statements are named prepared statements, and PostgreSQL plans a prepared statement generically after
-- five runs, estimating `user_id = $1` from the number of distinct users it has seen in audit_logs. On a database
-- with few users (a new installation, a clinic, the benchmark) that number is tiny, so the generic plan of "this
-- user's latest searches" walked the whole time index (17 ms on 54,000 rows) instead of the user's index (0.04 ms).
-- The staff who write audit rows number in the thousands nationally: state it, so the estimate does not depend on
-- how young the database is.
ALTER TABLE "audit_logs" ALTER COLUMN "user_id" SET (n_distinct = 2000);--> statement-breakpoint
ANALYZE "audit_logs";--> statement-breakpoint
-- 2. The bulk-search check (decision 011) as one function a search's own statement calls: no round trip of its own,
-- and its cost is opaque to the planner, so the search statement keeps its generic plan (with the check's queries
-- inline, the generic estimate stayed above the custom one and PostgreSQL planned the search again every time).
-- p_ids: the patients this search found (empty when the search's SEARCH row is already committed); p_rows: how
-- many of the user's previous SEARCH rows in the window to read (BULK_SEARCH_ROWS, less one when p_ids is this
-- search's). Returns whether it wrote a BULK_SEARCH_ALERT. Cheapest first: no count while the user already has an
-- alert in the window; none while the previous rows are too few to hold more than p_threshold patients even at
-- p_result_limit each (a count of at most that many index entries); else the distinct patients of those rows.
CREATE OR REPLACE FUNCTION nhr_bulk_search_check(
  p_user_id text, p_ids integer[], p_rows integer, p_minutes integer, p_threshold integer, p_result_limit integer,
  p_user_name text, p_facility text, p_ip text, p_user_agent text, p_description text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  since timestamptz := now() - make_interval(mins => p_minutes);
  needed integer := greatest(0, floor((p_threshold - cardinality(p_ids))::numeric / p_result_limit)::integer + 1);
  n integer;
BEGIN
  IF EXISTS (SELECT 1 FROM security_events e
             WHERE e.event_type = 'BULK_SEARCH_ALERT' AND e.user_id = p_user_id AND e.timestamp > since) THEN
    RETURN false;
  END IF;
  IF needed > p_rows THEN
    RETURN false;
  END IF;
  IF needed > 0 AND (SELECT count(*) FROM (
        SELECT 1 FROM audit_logs c WHERE c.user_id = p_user_id AND c.action = 'SEARCH' AND c.timestamp > since LIMIT needed) AS x) < needed THEN
    RETURN false;
  END IF;
  SELECT count(*) INTO n FROM (
    SELECT unnest(p_ids)::text
    UNION
    SELECT jsonb_array_elements_text(
      CASE WHEN jsonb_typeof(c.new_values -> 'patientIds') = 'array' THEN c.new_values -> 'patientIds' ELSE '[]'::jsonb END)
    FROM (SELECT c.new_values FROM audit_logs c
          WHERE c.user_id = p_user_id AND c.action = 'SEARCH' AND c.timestamp > since
          ORDER BY c.timestamp DESC LIMIT p_rows) AS c) AS u;
  IF n <= p_threshold THEN
    RETURN false;
  END IF;
  INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata, facility)
  VALUES (p_user_id, 'BULK_SEARCH_ALERT', 'HIGH', p_description, p_ip, p_user_agent,
          jsonb_build_object('count', n, 'threshold', p_threshold, 'minutes', p_minutes, 'userName', p_user_name), p_facility);
  RETURN true;
END;
$$;
