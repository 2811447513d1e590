CREATE TABLE "audit_chain_head" (
	"chain" smallint PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL,
	"last_id" bigint,
	"last_hash" varchar(64) NOT NULL,
	"prev_hash" varchar(64) NOT NULL,
	CONSTRAINT "audit_chain_head_chain" CHECK ("audit_chain_head"."chain" >= 1)
);
--> statement-breakpoint
ALTER TABLE "audit_logs" ALTER COLUMN "id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER SEQUENCE "audit_logs_id_seq" AS bigint;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "chain" smallint NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_logs" ADD COLUMN "chain_seq" bigint NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "audit_logs_chain_seq_idx" ON "audit_logs" USING btree ("chain","chain_seq");--> statement-breakpoint
CREATE INDEX "audit_logs_action_idx" ON "audit_logs" USING btree ("action","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_break_glass_idx" ON "audit_logs" USING btree ("timestamp") WHERE "audit_logs"."compliance_flags" ->> 'type' = 'BREAK_GLASS';--> statement-breakpoint
-- 16 chains (AUDIT_CHAINS in src/server/audit/audit-hash.ts), each starting at the genesis hash (64 zeros).
INSERT INTO "audit_chain_head" ("chain", "last_seq", "last_id", "last_hash", "prev_hash")
SELECT g, 0, NULL, repeat('0', 64), repeat('0', 64) FROM generate_series(1, 16) AS g;
--> statement-breakpoint
-- The one way rows enter audit_logs (src/server/audit/audit-writer.ts). In one call: lock this connection's chain
-- head (the lock, held until commit, serializes that chain's writers), take the id (after the lock, so ids rise
-- with positions within a chain and the verifier can read the log in id order), hash the row in the database
-- from the canonical JSON text the application built around the values only the database knows (chain,
-- position, id, timestamp), advance the head and insert the row. A function, so its plans are cached: about
-- half the cost of an ad-hoc statement. docs/security/audit-append-only.sql makes it SECURITY DEFINER, so the
-- application role needs no INSERT on audit_logs and no UPDATE on the heads.
CREATE FUNCTION nhr_audit_append(
  s0 text, s1 text, s2 text, s3 text, s4 text,
  p_user_id text, p_user_name text, p_action text, p_resource_type text, p_resource_id text, p_patient_id integer,
  p_old_values jsonb, p_new_values jsonb, p_ip_address text, p_user_agent text, p_session_id text, p_facility text,
  p_compliance_flags jsonb
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_chain smallint := pg_backend_pid() % 16 + 1;
  v_ts text := to_char(statement_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"');
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
    v_head.last_hash || s0 || v_chain::text || s1 || (v_head.last_seq + 1)::text || s2 || v_id::text || s3
      || '"' || v_ts || '"' || s4,
    'UTF8')), 'hex');
  UPDATE audit_chain_head
  SET last_seq = v_head.last_seq + 1, last_id = v_id, prev_hash = v_head.last_hash, last_hash = v_hash
  WHERE chain = v_chain;
  INSERT INTO audit_logs (id, chain, chain_seq, user_id, user_name, action, resource_type, resource_id, patient_id,
    old_values, new_values, ip_address, user_agent, "timestamp", session_id, facility, compliance_flags, prev_hash, hash)
  VALUES (v_id, v_chain, v_head.last_seq + 1, p_user_id, p_user_name, p_action, p_resource_type, p_resource_id,
    p_patient_id, p_old_values, p_new_values, p_ip_address, p_user_agent, v_ts::timestamptz, p_session_id, p_facility,
    p_compliance_flags, v_head.last_hash, v_hash);
  RETURN v_id;
END
$$;
