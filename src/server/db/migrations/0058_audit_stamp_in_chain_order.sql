-- A row of an audit chain is never stamped earlier than the row before it in its chain (decision 057): each chain's
-- rows then fall into the month partitions in position order, and every month is a clean cut that audit:archive
-- accepts. The head keeps its last row's timestamp; the two append functions of 0057 stamp greatest(statement start,
-- that timestamp). SECURITY DEFINER, which CREATE OR REPLACE resets, is set again when audit-append-only.sql had set it.
ALTER TABLE "audit_chain_head" ADD COLUMN "last_ts" timestamp with time zone;--> statement-breakpoint
-- The forward-only guard of the heads (audit-append-only.sql) refuses any other change of a head: set aside for this one.
DO $$
DECLARE
  v_guarded boolean := EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = 'audit_chain_head'::regclass
    AND tgname = 'audit_chain_head_forward_only');
BEGIN
  IF v_guarded THEN
    ALTER TABLE "audit_chain_head" DISABLE TRIGGER "audit_chain_head_forward_only";
  END IF;
  -- The last row of each chain by its id (the head names it): one index probe per chain and month.
  UPDATE "audit_chain_head" h SET "last_ts" = (SELECT max(a."timestamp") FROM "audit_logs" a WHERE a.id = h.last_id);
  IF v_guarded THEN
    ALTER TABLE "audit_chain_head" ENABLE TRIGGER "audit_chain_head_forward_only";
  END IF;
END
$$;--> statement-breakpoint
CREATE TEMP TABLE nhr_definer AS
  SELECT p.oid::regprocedure::text AS fn FROM pg_proc p
  WHERE p.proname IN ('nhr_audit_append', 'nhr_audit_append_sql') AND p.prosecdef;--> statement-breakpoint
CREATE OR REPLACE FUNCTION nhr_audit_append(
  s0 text, s1 text, s2 text, s3 text, s4 text,
  p_user_id text, p_user_name text, p_action text, p_resource_type text, p_resource_id text, p_patient_id integer,
  p_old_values jsonb, p_new_values jsonb, p_ip_address text, p_user_agent text, p_session_id text, p_facility text,
  p_compliance_flags jsonb, p_payload_hash text, p_payload_salt text, p_payload_ciphertext text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_chain smallint;
  v_ts text;
  v_head record;
  v_id bigint;
  v_hash text;
BEGIN
  IF (p_payload_hash IS NULL) <> (p_payload_salt IS NULL) OR (p_payload_hash IS NULL) <> (p_payload_ciphertext IS NULL) THEN
    RAISE EXCEPTION 'audit payload hash, salt and ciphertext go together: the audit row was not written';
  END IF;
  SELECT h.chain, h.last_seq, h.last_hash INTO v_head FROM nhr_audit_chain_take() AS h;
  v_chain := v_head.chain;
  -- Never earlier than the chain's last row (its head is locked: nhr_audit_chain_take).
  SELECT to_char(greatest(statement_timestamp(), h.last_ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') INTO v_ts
    FROM audit_chain_head h WHERE h.chain = v_chain;
  v_id := nextval('audit_logs_id_seq');
  v_hash := encode(sha256(convert_to(
    v_head.last_hash || s0 || v_chain::text || s1 || (v_head.last_seq + 1)::text || s2 || v_id::text || s3
      || '"' || v_ts || '"' || s4,
    'UTF8')), 'hex');
  UPDATE audit_chain_head
  SET last_seq = v_head.last_seq + 1, last_id = v_id, prev_hash = v_head.last_hash, last_hash = v_hash,
    last_ts = v_ts::timestamptz
  WHERE chain = v_chain;
  INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type, resource_id, patient_id,
    old_values, new_values, ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, payload_hash,
    prev_hash, hash)
  VALUES (v_id, v_chain, v_head.last_seq + 1, p_user_id, p_user_name, p_action, p_resource_type, p_resource_id,
    p_patient_id, p_old_values, p_new_values, p_ip_address, p_user_agent, v_ts::timestamptz, p_session_id, p_facility,
    p_compliance_flags, p_payload_hash, v_head.last_hash, v_hash);
  IF p_payload_hash IS NOT NULL THEN
    INSERT INTO audit_payloads (audit_id, salt, ciphertext) VALUES (v_id, p_payload_salt, p_payload_ciphertext);
  END IF;
  RETURN v_id;
END
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION nhr_audit_append_sql(
  s0 text, s1 text, s2 text, s3 text, s4 text, s5 text, s6 text,
  p_new_values text, p_patient_id integer,
  p_user_id text, p_user_name text, p_action text, p_resource_type text, p_resource_id text,
  p_old_values jsonb, p_ip_address text, p_user_agent text, p_session_id text, p_facility text,
  p_compliance_flags jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_chain smallint;
  v_ts text;
  v_head record;
  v_id bigint;
  v_hash text;
BEGIN
  IF p_new_values IS NULL THEN
    RAISE EXCEPTION 'audit new_values text is missing: the audit row was not written';
  END IF;
  SELECT h.chain, h.last_seq, h.last_hash INTO v_head FROM nhr_audit_chain_take() AS h;
  v_chain := v_head.chain;
  -- Never earlier than the chain's last row (its head is locked: nhr_audit_chain_take).
  SELECT to_char(greatest(statement_timestamp(), h.last_ts) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') INTO v_ts
    FROM audit_chain_head h WHERE h.chain = v_chain;
  v_id := nextval('audit_logs_id_seq');
  v_hash := encode(sha256(convert_to(
    v_head.last_hash || s0 || v_chain::text || s1 || (v_head.last_seq + 1)::text || s2 || v_id::text || s3
      || p_new_values || s4 || coalesce(p_patient_id::text, 'null') || s5 || '"' || v_ts || '"' || s6,
    'UTF8')), 'hex');
  UPDATE audit_chain_head
  SET last_seq = v_head.last_seq + 1, last_id = v_id, prev_hash = v_head.last_hash, last_hash = v_hash,
    last_ts = v_ts::timestamptz
  WHERE chain = v_chain;
  INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type, resource_id, patient_id,
    old_values, new_values, ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, hash)
  VALUES (v_id, v_chain, v_head.last_seq + 1, p_user_id, p_user_name, p_action, p_resource_type, p_resource_id,
    p_patient_id, p_old_values, p_new_values::jsonb, p_ip_address, p_user_agent, v_ts::timestamptz, p_session_id, p_facility,
    p_compliance_flags, v_head.last_hash, v_hash);
  RETURN v_id;
END
$$;--> statement-breakpoint
DO $$
DECLARE
  v_fn text;
BEGIN
  FOR v_fn IN SELECT fn FROM nhr_definer LOOP
    EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = public, pg_temp', v_fn);
  END LOOP;
END
$$;--> statement-breakpoint
DROP TABLE nhr_definer;
