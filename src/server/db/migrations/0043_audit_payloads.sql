-- Issue 23 item 4 (docs/decisions/042-audit-payloads-out-of-the-chain.md): the audit chain holds events, not payloads.
-- A row that records a change of clinical content chains a salted hash of its payload (payload_hash) and the payload
-- itself goes into audit_payloads, sealed with a key outside the database, where it can later be shredded while
-- `npm run audit:verify` still passes. Existing rows keep payload_hash NULL, and the chained canonical JSON names
-- payloadHash only when it is not NULL, so they hash exactly as before: no row is re-chained.
ALTER TABLE "audit_logs" ADD COLUMN "payload_hash" varchar(64);--> statement-breakpoint
CREATE TABLE "audit_payloads" (
	"audit_id" bigint PRIMARY KEY NOT NULL,
	"salt" text,
	"ciphertext" text,
	"shredded_at" timestamp with time zone,
	"shredded_by" text,
	"shred_reason" varchar(500),
	CONSTRAINT "audit_payloads_sealed_or_shredded" CHECK (("audit_payloads"."salt" IS NULL) = ("audit_payloads"."ciphertext" IS NULL)
		AND ("audit_payloads"."ciphertext" IS NULL) = ("audit_payloads"."shredded_at" IS NOT NULL))
);
--> statement-breakpoint
-- A payload row is kept for ever (a missing one is detectable); the only change allowed is its shredding: salt and
-- ciphertext from a value to NULL, with when, by whom and why. For every role, the owner included (a superuser can
-- still disable the trigger: the verifier then names the payload that no longer matches its chained hash).
CREATE FUNCTION nhr_audit_payload_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.audit_id = OLD.audit_id AND OLD.ciphertext IS NOT NULL AND NEW.ciphertext IS NULL
      AND NEW.salt IS NULL AND NEW.shredded_at IS NOT NULL THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% on audit_payloads refused: a payload can only be shredded', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER "audit_payloads_shred_only" BEFORE UPDATE OR DELETE ON "audit_payloads"
  FOR EACH ROW EXECUTE FUNCTION nhr_audit_payload_guard();--> statement-breakpoint
CREATE TRIGGER "audit_payloads_no_truncate" BEFORE TRUNCATE ON "audit_payloads"
  FOR EACH STATEMENT EXECUTE FUNCTION nhr_audit_payload_guard();--> statement-breakpoint
DROP FUNCTION nhr_audit_append(text, text, text, text, text, text, text, text, text, text, integer, jsonb, jsonb, text, text,
  text, text, jsonb);--> statement-breakpoint
-- nhr_audit_append (migration 0004) with the payload: p_payload_hash is chained (the caller's canonical text names it
-- exactly when it is not NULL) and stored in audit_logs; the sealed salt and payload go into audit_payloads in the same
-- call, so a row with a payload hash never exists without its payload row, whatever transaction the caller holds.
CREATE FUNCTION nhr_audit_append(
  s0 text, s1 text, s2 text, s3 text, s4 text,
  p_user_id text, p_user_name text, p_action text, p_resource_type text, p_resource_id text, p_patient_id integer,
  p_old_values jsonb, p_new_values jsonb, p_ip_address text, p_user_agent text, p_session_id text, p_facility text,
  p_compliance_flags jsonb, p_payload_hash text, p_payload_salt text, p_payload_ciphertext text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_chain smallint := pg_backend_pid() % 16 + 1;
  v_ts text := to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
  v_head record;
  v_id bigint;
  v_hash text;
BEGIN
  IF (p_payload_hash IS NULL) <> (p_payload_salt IS NULL) OR (p_payload_hash IS NULL) <> (p_payload_ciphertext IS NULL) THEN
    RAISE EXCEPTION 'audit payload hash, salt and ciphertext go together: the audit row was not written';
  END IF;
  SELECT last_seq, last_hash INTO v_head FROM audit_chain_head WHERE chain = v_chain FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'audit chain head is missing: the audit row was not written';
  END IF;
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
$$;
