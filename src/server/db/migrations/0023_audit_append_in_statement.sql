-- One round trip for a read or change and its audit row (issue 11, docs/decisions/015-audit-in-the-same-statement.md).
-- nhr_audit_append_sql is nhr_audit_append (migration 0004) for a row whose new_values and patient_id the same
-- statement computes (the ids a search found, the id of the grant it inserted, the sizes of the lists it read):
-- the caller sends the canonical JSON of the row around six holes (chain, chain_seq, id, new_values, patient_id,
-- timestamp) and p_new_values as canonical JSON text built in the statement; the function fills the holes, so the
-- hash is the one the verifier recomputes from the stored row.
CREATE FUNCTION nhr_audit_append_sql(
  s0 text, s1 text, s2 text, s3 text, s4 text, s5 text, s6 text,
  p_new_values text, p_patient_id integer,
  p_user_id text, p_user_name text, p_action text, p_resource_type text, p_resource_id text,
  p_old_values jsonb, p_ip_address text, p_user_agent text, p_session_id text, p_facility text,
  p_compliance_flags jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_chain smallint := pg_backend_pid() % 16 + 1;
  v_ts text := to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  v_head record;
  v_id bigint;
  v_hash text;
BEGIN
  IF p_new_values IS NULL THEN
    RAISE EXCEPTION 'audit new_values text is missing: the audit row was not written';
  END IF;
  SELECT last_seq, last_hash INTO v_head FROM audit_chain_head WHERE chain = v_chain FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'audit chain head is missing: the audit row was not written';
  END IF;
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
$$;
