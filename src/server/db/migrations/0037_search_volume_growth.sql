-- Issue 21 item 7, docs/decisions/036-bulk-search-alerts-grow-and-daily.md: the bulk-search alert grows and a daily
-- threshold catches paced harvesting.
--
-- Before, the check wrote one BULK_SEARCH_ALERT and then, while it was open (ALERT_BULK_SEARCH_MINUTES), did nothing:
-- its count stayed at the figure that crossed the threshold however many patients followed, and a user who stayed
-- under the threshold in every window (about 28,000 patients a day) raised nothing. Now:
-- * each search counts the patients it found that are new in the window and new in the last 24 hours (index lookups
--   of this search's own ids, nothing else);
-- * while an alert is open, its count grows by this search's new patients (no count of all rows), updated_at moves,
--   and past ESCALATE_FACTOR times its threshold it becomes CRITICAL (escalated);
-- * BULK_SEARCH_DAILY_ALERT: more than p_day_threshold distinct patients within 24 hours, growing the same way;
-- * the counts that decide a new alert stop at threshold + 1 index entries (search_volume_user_seen_idx), so a
--   count never costs more than the threshold, however many patients a user found.
-- search_volume now keeps a day of each user's patients (rows older than both windows are deleted by chance).
CREATE INDEX "search_volume_user_seen_idx" ON "search_volume" USING btree ("user_id","last_seen");--> statement-breakpoint
DROP FUNCTION IF EXISTS nhr_bulk_search_check(text, integer[], integer, integer, text, text, text, text, text);--> statement-breakpoint
CREATE FUNCTION nhr_bulk_search_check(
  p_user_id text, p_ids integer[], p_minutes integer, p_threshold integer, p_day_threshold integer,
  p_user_name text, p_facility text, p_ip text, p_user_agent text, p_description text, p_day_description text
) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  escalate_factor CONSTANT integer := 4;
  t_now timestamptz := now();
  since timestamptz := t_now - make_interval(mins => p_minutes);
  day_since timestamptz := t_now - interval '1 day';
  found integer;
  new_in_window integer;
  new_in_day integer;
  open_id integer;
  n integer;
  raised boolean := false;
BEGIN
  IF cardinality(p_ids) = 0 THEN
    RETURN false;
  END IF;
  SELECT count(DISTINCT f.id) INTO found FROM unnest(p_ids) AS f(id);
  SELECT found - count(*) FILTER (WHERE v.last_seen > since), found - count(*) FILTER (WHERE v.last_seen > day_since)
    INTO new_in_window, new_in_day
    FROM search_volume v WHERE v.user_id = p_user_id AND v.patient_id = ANY (p_ids);
  INSERT INTO search_volume AS v (user_id, patient_id, last_seen)
  SELECT p_user_id, f.id, t_now FROM (SELECT DISTINCT unnest(p_ids) AS id) AS f ORDER BY f.id
  ON CONFLICT (user_id, patient_id) DO UPDATE SET last_seen = excluded.last_seen;
  IF random() < 0.02 THEN
    DELETE FROM search_volume WHERE user_id = p_user_id AND last_seen <= least(since, day_since);
  END IF;

  -- The window: grow the open alert, or count (at most p_threshold + 1 entries) and raise one.
  IF new_in_window > 0 THEN
    SELECT e.id INTO open_id FROM security_events e
      WHERE e.event_type = 'BULK_SEARCH_ALERT' AND e.user_id = p_user_id AND e.timestamp > since
      ORDER BY e.timestamp DESC, e.id DESC LIMIT 1;
    IF open_id IS NOT NULL THEN
      UPDATE security_events e SET
        metadata = e.metadata || jsonb_build_object('count', coalesce((e.metadata ->> 'count')::int, 0) + new_in_window,
                                                    'updatedAt', t_now),
        severity = CASE WHEN coalesce((e.metadata ->> 'count')::int, 0) + new_in_window > escalate_factor * p_threshold
                        THEN 'CRITICAL' ELSE e.severity END
      WHERE e.id = open_id;
    ELSE
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
  END IF;

  -- The last 24 hours, the same way.
  IF new_in_day > 0 THEN
    open_id := NULL;
    SELECT e.id INTO open_id FROM security_events e
      WHERE e.event_type = 'BULK_SEARCH_DAILY_ALERT' AND e.user_id = p_user_id AND e.timestamp > day_since
      ORDER BY e.timestamp DESC, e.id DESC LIMIT 1;
    IF open_id IS NOT NULL THEN
      UPDATE security_events e SET
        metadata = e.metadata || jsonb_build_object('count', coalesce((e.metadata ->> 'count')::int, 0) + new_in_day,
                                                    'updatedAt', t_now),
        severity = CASE WHEN coalesce((e.metadata ->> 'count')::int, 0) + new_in_day > escalate_factor * p_day_threshold
                        THEN 'CRITICAL' ELSE e.severity END
      WHERE e.id = open_id;
    ELSE
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
  END IF;
  RETURN raised;
END;
$$;
