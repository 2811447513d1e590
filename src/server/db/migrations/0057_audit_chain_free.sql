-- A free audit chain for each transaction (issue 29 item 2, docs/decisions/060-where-the-tail-came-from.md). Until now a
-- connection wrote to chain pg_backend_pid() % 16 + 1 and locked that chain's head until its transaction ended; with
-- two workers of ten connections each, some connections always shared a chain, and one's statement waited for the
-- other's commit (sampled under load: "Lock:transactionid on audit_chain_head"). nhr_audit_chain_take locks the first
-- chain no other transaction holds, starting from the connection's own, and only waits when all 16 are held. A
-- transaction keeps the chain it took for all its rows (nhr.audit_chain, local to the transaction), so it never holds
-- two heads and two transactions never wait on each other's. The hash, the rows and the verifier are unchanged: which
-- chain a row goes to was never part of what is verified, only that each chain is whole.
CREATE FUNCTION nhr_audit_chain_take(OUT chain smallint, OUT last_seq bigint, OUT last_hash text) LANGUAGE plpgsql AS $$
DECLARE
  v_held text := current_setting('nhr.audit_chain', true);
  v_own smallint := pg_backend_pid() % 16 + 1;
BEGIN
  IF coalesce(v_held, '') <> '' THEN
    SELECT h.chain, h.last_seq, h.last_hash INTO chain, last_seq, last_hash
      FROM audit_chain_head h WHERE h.chain = v_held::smallint FOR UPDATE;
  ELSE
    SELECT h.chain, h.last_seq, h.last_hash INTO chain, last_seq, last_hash
      FROM audit_chain_head h ORDER BY (h.chain - v_own + 16) % 16 LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF NOT FOUND THEN
      SELECT h.chain, h.last_seq, h.last_hash INTO chain, last_seq, last_hash
        FROM audit_chain_head h WHERE h.chain = v_own FOR UPDATE;
    END IF;
  END IF;
  IF chain IS NULL THEN
    RAISE EXCEPTION 'audit chain head is missing: the audit row was not written';
  END IF;
  PERFORM set_config('nhr.audit_chain', chain::text, true);
END
$$;--> statement-breakpoint
-- The two append functions take their chain from nhr_audit_chain_take. Replaced in place, so their rights stay;
-- SECURITY DEFINER, which a replacement resets, is set again where it was set (docs/security/audit-append-only.sql).
CREATE TEMP TABLE nhr_0057_definer AS
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
  v_ts text := to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  v_head record;
  v_id bigint;
  v_hash text;
BEGIN
  IF (p_payload_hash IS NULL) <> (p_payload_salt IS NULL) OR (p_payload_hash IS NULL) <> (p_payload_ciphertext IS NULL) THEN
    RAISE EXCEPTION 'audit payload hash, salt and ciphertext go together: the audit row was not written';
  END IF;
  SELECT h.chain, h.last_seq, h.last_hash INTO v_head FROM nhr_audit_chain_take() AS h;
  v_chain := v_head.chain;
  v_id := nextval('audit_logs_id_seq');
  v_hash := encode(sha256(convert_to(
    v_head.last_hash || s0 || v_chain::text || s1 || (v_head.last_seq + 1)::text || s2 || v_id::text || s3
      || '"' || v_ts || '"' || s4,
    'UTF8')), 'hex');
  UPDATE audit_chain_head
  SET last_seq = v_head.last_seq + 1, last_id = v_id, prev_hash = v_head.last_hash, last_hash = v_hash
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
  v_ts text := to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  v_head record;
  v_id bigint;
  v_hash text;
BEGIN
  IF p_new_values IS NULL THEN
    RAISE EXCEPTION 'audit new_values text is missing: the audit row was not written';
  END IF;
  SELECT h.chain, h.last_seq, h.last_hash INTO v_head FROM nhr_audit_chain_take() AS h;
  v_chain := v_head.chain;
  v_id := nextval('audit_logs_id_seq');
  v_hash := encode(sha256(convert_to(
    v_head.last_hash || s0 || v_chain::text || s1 || (v_head.last_seq + 1)::text || s2 || v_id::text || s3
      || p_new_values || s4 || coalesce(p_patient_id::text, 'null') || s5 || '"' || v_ts || '"' || s6,
    'UTF8')), 'hex');
  UPDATE audit_chain_head
  SET last_seq = v_head.last_seq + 1, last_id = v_id, prev_hash = v_head.last_hash, last_hash = v_hash
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
  FOR v_fn IN SELECT fn FROM nhr_0057_definer LOOP
    EXECUTE format('ALTER FUNCTION %s SECURITY DEFINER SET search_path = public, pg_temp', v_fn);
  END LOOP;
END
$$;--> statement-breakpoint
DROP TABLE nhr_0057_definer;
