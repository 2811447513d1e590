-- One round trip for a read and its audit row (issue 11, docs/decisions/015-read-and-audit-in-one-statement.md).
-- nhr_audit_append_ids is nhr_audit_append (migration 0004) for a row whose new_values carry the ids a read in the
-- same statement found: the caller sends the canonical JSON of the row around seven holes (chain, chain_seq, id,
-- new_values, patient_id, timestamp) and of new_values around two (the id list and its length); the function
-- fills them in, so the hash is the one the verifier recomputes from the stored row. With p_single_patient the
-- row names the patient when exactly one id was found (a search with one result appears in that patient's
-- access history); otherwise it names p_patient_id.
CREATE FUNCTION nhr_audit_append_ids(
  s0 text, s1 text, s2 text, s3 text, s4 text, s5 text, s6 text,
  nv_head text, nv_mid text, nv_tail text, p_ids integer[], p_single_patient boolean, p_patient_id integer,
  p_user_id text, p_user_name text, p_action text, p_resource_type text, p_resource_id text,
  p_old_values jsonb, p_ip_address text, p_user_agent text, p_session_id text, p_facility text,
  p_compliance_flags jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_chain smallint := pg_backend_pid() % 16 + 1;
  v_ts text := to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  v_ids integer[] := coalesce(p_ids, '{}'::integer[]);
  v_patient integer := CASE WHEN p_single_patient THEN CASE WHEN cardinality(v_ids) = 1 THEN v_ids[1] END ELSE p_patient_id END;
  v_nv text := nv_head || array_to_string(v_ids, ',') || nv_mid || cardinality(v_ids)::text || nv_tail;
  v_head record;
  v_id bigint;
  v_hash text;
BEGIN
  SELECT last_seq, last_hash INTO v_head FROM audit_chain_head WHERE chain = v_chain FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'audit chain head is missing: the audit row was not written';
  END IF;
  v_id := nextval('audit_logs_id_seq');
  v_hash := encode(sha256(convert_to(
    v_head.last_hash || s0 || v_chain::text || s1 || (v_head.last_seq + 1)::text || s2 || v_id::text || s3 || v_nv
      || s4 || coalesce(v_patient::text, 'null') || s5 || '"' || v_ts || '"' || s6,
    'UTF8')), 'hex');
  UPDATE audit_chain_head
  SET last_seq = v_head.last_seq + 1, last_id = v_id, prev_hash = v_head.last_hash, last_hash = v_hash
  WHERE chain = v_chain;
  INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type, resource_id, patient_id,
    old_values, new_values, ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, hash)
  VALUES (v_id, v_chain, v_head.last_seq + 1, p_user_id, p_user_name, p_action, p_resource_type, p_resource_id,
    v_patient, p_old_values, v_nv::jsonb, p_ip_address, p_user_agent, v_ts::timestamptz, p_session_id, p_facility,
    p_compliance_flags, v_head.last_hash, v_hash);
  RETURN v_id;
END
$$;
