-- Decision 059: counted requests and the bulk-search check without a row that one user's parallel requests queue on.
-- * rate_limit_requests: one row inserted per counted request (key, when); a limit counts its key's rows of the
--   clock-aligned window on the (key, at) index, at most `max` of them. Inserts take no lock another request waits
--   for, so one user's parallel requests (and their statements' audit rows) no longer wait on a counter row's lock
--   until each other's commit, as they did on rate_limit_hits' one upserted row per key. rate_limit_hits goes.
-- * nhr_bulk_search_check: search_volume's known (user, patient) rows are no longer rewritten by every search.
CREATE TABLE "rate_limit_requests" (
	"key" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "rate_limit_requests_key_at_idx" ON "rate_limit_requests" USING btree ("key","at");--> statement-breakpoint
CREATE INDEX "rate_limit_requests_at_idx" ON "rate_limit_requests" USING btree ("at");--> statement-breakpoint
DROP TABLE "rate_limit_hits";--> statement-breakpoint
CREATE OR REPLACE FUNCTION nhr_bulk_search_check(
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
  -- Pairs new to the user are inserted (only those: a conflicting row another search is moving would make the insert
  -- wait for it); known ones move to now only when at least a minute old, skipping a row another search of the same
  -- user is moving at this moment (decision 059): one user's parallel searches of the same patients no longer queue
  -- on its rows until each other's commit. last_seen may lag by up to a minute, so a patient may count as new to the
  -- window up to a minute early (an alert a little sooner, never later).
  INSERT INTO search_volume AS v (user_id, patient_id, last_seen)
  SELECT p_user_id, f.id, t_now FROM (SELECT DISTINCT unnest(p_ids) AS id) AS f
   WHERE NOT EXISTS (SELECT 1 FROM search_volume s WHERE s.user_id = p_user_id AND s.patient_id = f.id)
   ORDER BY f.id
  ON CONFLICT (user_id, patient_id) DO NOTHING;
  UPDATE search_volume AS v SET last_seen = t_now
    FROM (SELECT s.patient_id FROM search_volume s
           WHERE s.user_id = p_user_id AND s.patient_id = ANY (p_ids) AND s.last_seen <= t_now - interval '1 minute'
           ORDER BY s.patient_id FOR UPDATE SKIP LOCKED) AS x
   WHERE v.user_id = p_user_id AND v.patient_id = x.patient_id;
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
