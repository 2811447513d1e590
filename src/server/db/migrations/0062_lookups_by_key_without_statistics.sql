-- Issue 29 (decision 065): the bulk-search check reads and writes search_volume by (user, patient), and the rate-limit
-- gate reads its own key's counters, whatever ANALYZE last saw. The planner estimated a key's rows from the
-- most-common-values list of the last ANALYZE, so a key absent then was estimated at one row: any new user (above
-- all one who starts harvesting), and every rate-limit window that began since. It then read all of the user's rows
-- instead of the searched patients, and ran the UPDATE's locking subquery again for each of them (10.9 s for one
-- call of a user with 5,129 rows, a statement timeout in the search benchmark); and the gate read the whole window
-- of every user through the window_start index. Without statistics on these columns the planner takes a default
-- share of the table per key, never one row, and goes by the primary key.
ALTER TABLE search_volume ALTER COLUMN user_id SET STATISTICS 0;--> statement-breakpoint
-- To the same type: no rewrite, but PostgreSQL drops the statistics already collected for the column, which ANALYZE
-- would otherwise keep as they are.
ALTER TABLE search_volume ALTER COLUMN user_id TYPE text;--> statement-breakpoint
-- The same trap in every limited request's gate: a window that began after the last ANALYZE (every window, in
-- time) was estimated at one row, and the gate read the whole window of every user through the window_start index
-- instead of its own key's counters through the primary key.
ALTER TABLE rate_limit_counts ALTER COLUMN key SET STATISTICS 0, ALTER COLUMN window_start SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE rate_limit_counts ALTER COLUMN key TYPE text, ALTER COLUMN window_start TYPE timestamptz;--> statement-breakpoint
CREATE OR REPLACE FUNCTION nhr_bulk_search_check(
  p_user_id text, p_ids integer[], p_minutes integer, p_threshold integer, p_day_threshold integer,
  p_user_name text, p_facility text, p_ip text, p_user_agent text, p_description text, p_day_description text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  escalate_factor CONSTANT integer := 4;
  t_now timestamptz := now();
  since timestamptz := t_now - make_interval(mins => p_minutes);
  day_since timestamptz := t_now - interval '1 day';
  new_in_window integer;
  new_in_day integer;
  grown text[];
  n integer;
  raised boolean := false;
BEGIN
  IF cardinality(p_ids) = 0 THEN
    RETURN false;
  END IF;
  -- The distinct patients found, less those the user saw within the window (within the day).
  SELECT f.n - count(v.patient_id) FILTER (WHERE v.last_seen > since), f.n - count(v.patient_id) FILTER (WHERE v.last_seen > day_since)
    INTO new_in_window, new_in_day
    FROM (SELECT count(DISTINCT u.id)::int AS n FROM unnest(p_ids) AS u(id)) AS f
    LEFT JOIN search_volume v ON v.user_id = p_user_id AND v.patient_id = ANY (p_ids)
   GROUP BY f.n;
  -- Pairs new to the user are inserted (only those: a conflicting row another search is moving would make the insert
  -- wait for it); known ones move to now only when at least a minute old, skipping a row another search of the same
  -- user is moving at this moment (decision 059). last_seen may lag by up to a minute, so a patient may count as new
  -- to the window up to a minute early (an alert a little sooner, never later).
  IF new_in_day > 0 THEN
    INSERT INTO search_volume AS v (user_id, patient_id, last_seen)
    SELECT p_user_id, f.id, t_now FROM (SELECT DISTINCT unnest(p_ids) AS id) AS f
     WHERE NOT EXISTS (SELECT 1 FROM search_volume s WHERE s.user_id = p_user_id AND s.patient_id = f.id)
     ORDER BY f.id
    ON CONFLICT (user_id, patient_id) DO NOTHING;
  END IF;
  -- The locking scan is a MATERIALIZED CTE: it runs once whatever the plan (as a subquery it could be the inner side
  -- of a nested loop, run again for every one of the user's rows).
  WITH x AS MATERIALIZED (
    SELECT s.patient_id FROM search_volume s
     WHERE s.user_id = p_user_id AND s.patient_id = ANY (p_ids) AND s.last_seen <= t_now - interval '1 minute'
     ORDER BY s.patient_id FOR UPDATE SKIP LOCKED)
  UPDATE search_volume AS v SET last_seen = t_now FROM x
   WHERE v.user_id = p_user_id AND v.patient_id = x.patient_id;
  IF random() < 0.02 THEN
    DELETE FROM search_volume WHERE user_id = p_user_id AND last_seen <= least(since, day_since);
  END IF;
  IF new_in_window = 0 AND new_in_day = 0 THEN
    RETURN false;
  END IF;

  -- The open alerts (the window's, the day's) grow by the patients new to them, escalating past escalate_factor
  -- times their threshold; one statement for both.
  WITH opened AS (
    SELECT DISTINCT ON (e.event_type) e.id, e.event_type,
           CASE WHEN e.event_type = 'BULK_SEARCH_ALERT' THEN new_in_window ELSE new_in_day END AS added,
           CASE WHEN e.event_type = 'BULK_SEARCH_ALERT' THEN p_threshold ELSE p_day_threshold END AS threshold
      FROM security_events e
     WHERE e.user_id = p_user_id
       AND ((e.event_type = 'BULK_SEARCH_ALERT' AND new_in_window > 0 AND e.timestamp > since)
         OR (e.event_type = 'BULK_SEARCH_DAILY_ALERT' AND new_in_day > 0 AND e.timestamp > day_since))
     ORDER BY e.event_type, e.timestamp DESC, e.id DESC
  ), grew AS (
    UPDATE security_events e SET
      metadata = e.metadata || jsonb_build_object('count', coalesce((e.metadata ->> 'count')::int, 0) + o.added, 'updatedAt', t_now),
      severity = CASE WHEN coalesce((e.metadata ->> 'count')::int, 0) + o.added > escalate_factor * o.threshold
                      THEN 'CRITICAL' ELSE e.severity END
      FROM opened o
     WHERE e.id = o.id
    RETURNING o.event_type
  )
  SELECT coalesce(array_agg(event_type::text), '{}') INTO grown FROM grew;

  -- The window without an open alert: count (at most p_threshold + 1 entries) and raise one over it.
  IF new_in_window > 0 AND NOT ('BULK_SEARCH_ALERT' = ANY (grown)) THEN
    SELECT count(*) INTO n FROM (SELECT 1 FROM search_volume v
      WHERE v.user_id = p_user_id AND v.last_seen > since LIMIT p_threshold + 1) AS x;
    IF n > p_threshold THEN
      INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata, facility)
      VALUES (p_user_id, 'BULK_SEARCH_ALERT', 'HIGH', p_description, p_ip, p_user_agent,
              jsonb_build_object('count', n, 'threshold', p_threshold, 'minutes', p_minutes, 'userName', p_user_name,
                                 'updatedAt', t_now), p_facility);
      raised := true;
    END IF;
  END IF;

  -- The last 24 hours, the same way.
  IF new_in_day > 0 AND NOT ('BULK_SEARCH_DAILY_ALERT' = ANY (grown)) THEN
    SELECT count(*) INTO n FROM (SELECT 1 FROM search_volume v
      WHERE v.user_id = p_user_id AND v.last_seen > day_since LIMIT p_day_threshold + 1) AS x;
    IF n > p_day_threshold THEN
      INSERT INTO security_events (user_id, event_type, severity, description, ip_address, user_agent, metadata, facility)
      VALUES (p_user_id, 'BULK_SEARCH_DAILY_ALERT', 'HIGH', p_day_description, p_ip, p_user_agent,
              jsonb_build_object('count', n, 'threshold', p_day_threshold, 'minutes', 1440, 'userName', p_user_name,
                                 'updatedAt', t_now), p_facility);
      raised := true;
    END IF;
  END IF;
  RETURN raised;
END;
$$;
