-- Append-only audit trail: grants and guard triggers (docs/security/audit-append-only.md).
--
-- Run as the role that owns the tables (the one that ran the migrations), after every migration run:
--   psql "$OWNER_DATABASE_URL" -v ON_ERROR_STOP=1 -v app_role=nhr_app -f docs/security/audit-append-only.sql
-- It is idempotent. It is deliberately NOT a migration: tests tamper with the audit tables on purpose.
\if :{?app_role}
\else
  \set app_role nhr_app
\endif

-- 1. The application role: ordinary rights on the ordinary tables, now and for tables later migrations add.
GRANT USAGE ON SCHEMA public TO :"app_role";
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app_role";
GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO :"app_role";
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app_role";
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO :"app_role";
-- The migrator's bookkeeping: the app checks it at start (nothing to apply), but cannot change it.
GRANT USAGE ON SCHEMA drizzle TO :"app_role";
GRANT SELECT ON ALL TABLES IN SCHEMA drizzle TO :"app_role";

-- 2. The audit trail: read it, append to it only through nhr_audit_append, never change or remove it.
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_logs, audit_chain_head FROM PUBLIC, :"app_role";
GRANT SELECT ON audit_logs, audit_chain_head TO :"app_role";
REVOKE ALL ON SEQUENCE audit_logs_id_seq FROM PUBLIC, :"app_role";
-- The function runs with its owner's rights, so the application needs no INSERT on audit_logs and no
-- UPDATE on the chain heads: it cannot write a row that skips the chain, or move a head.
-- (Its signature since migration 0043: the payload hash, sealed salt and sealed payload at the end.)
ALTER FUNCTION nhr_audit_append(text, text, text, text, text, text, text, text, text, text, integer, jsonb, jsonb,
  text, text, text, text, jsonb, text, text, text) SECURITY DEFINER SET search_path = public, pg_temp;
REVOKE ALL ON FUNCTION nhr_audit_append(text, text, text, text, text, text, text, text, text, text, integer, jsonb,
  jsonb, text, text, text, text, jsonb, text, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION nhr_audit_append(text, text, text, text, text, text, text, text, text, text, integer, jsonb,
  jsonb, text, text, text, text, jsonb, text, text, text) TO :"app_role";
-- The same for the append inside a read's or change's own statement (migration 0023).
ALTER FUNCTION nhr_audit_append_sql(text, text, text, text, text, text, text, text, integer, text, text, text, text,
  text, jsonb, text, text, text, text, jsonb) SECURITY DEFINER SET search_path = public, pg_temp;
REVOKE ALL ON FUNCTION nhr_audit_append_sql(text, text, text, text, text, text, text, text, integer, text, text, text,
  text, text, jsonb, text, text, text, text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION nhr_audit_append_sql(text, text, text, text, text, text, text, text, integer, text, text,
  text, text, text, jsonb, text, text, text, text, jsonb) TO :"app_role";

-- Audit payloads (migration 0043, decision 042): rows enter only through nhr_audit_append; the application may read
-- them and shred one (UPDATE, which migration 0043's trigger limits to shredding), never insert or delete.
REVOKE INSERT, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_payloads FROM PUBLIC, :"app_role";
GRANT SELECT, UPDATE ON audit_payloads TO :"app_role";

-- The month partitions of audit_logs (migration 0054, decision 057): the application creates the months ahead through
-- nhr_audit_ensure_partitions only, which runs with its owner's rights (the application has no CREATE); the
-- partitions are the owner's, and the archive checkpoints are written by the operator's audit:archive (as owner).
ALTER FUNCTION nhr_audit_ensure_partitions(integer) SECURITY DEFINER SET search_path = public, pg_temp;
REVOKE ALL ON FUNCTION nhr_audit_ensure_partitions(integer) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION nhr_audit_ensure_partitions(integer) TO :"app_role";
REVOKE ALL ON FUNCTION nhr_audit_create_partition(date), nhr_audit_guard_partition(regclass) FROM PUBLIC;
REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON audit_archives FROM PUBLIC, :"app_role";

-- Security events and compliance reports are records too: insert and read only.
REVOKE UPDATE, DELETE, TRUNCATE ON security_events, compliance_reports, compliance_report_archives, audit_checkpoints FROM PUBLIC, :"app_role";

-- 3. Defence in depth, for every role including the owner (a superuser can still disable triggers; the hash
--    chain and its anchors are what shows that).
CREATE OR REPLACE FUNCTION nhr_audit_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% on % refused: the audit trail is append-only', TG_OP, TG_TABLE_NAME
    USING ERRCODE = 'insufficient_privilege';
END
$$;

-- A row may enter audit_logs only as the row its chain head was just advanced to (nhr_audit_append's order).
CREATE OR REPLACE FUNCTION nhr_audit_check_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM audit_chain_head h WHERE h.chain = NEW.chain AND h.last_seq = NEW.chain_seq
      AND h.last_id = NEW.id AND h.last_hash = NEW.hash AND h.prev_hash = NEW.prev_hash) THEN
    RAISE EXCEPTION 'audit row % is not the head of its chain: refused', NEW.id USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END
$$;

-- A chain head may only move forward by one row, from its own last hash.
CREATE OR REPLACE FUNCTION nhr_audit_check_head() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.chain = OLD.chain AND NEW.last_seq = OLD.last_seq + 1 AND NEW.prev_hash = OLD.last_hash
      AND NEW.last_id IS NOT NULL THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% on audit_chain_head refused: chain heads only move forward', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;

DROP TRIGGER IF EXISTS audit_logs_append_only ON audit_logs;
CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE ON audit_logs
  FOR EACH ROW EXECUTE FUNCTION nhr_audit_refuse_change();
DROP TRIGGER IF EXISTS audit_logs_no_truncate ON audit_logs;
CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON audit_logs
  FOR EACH STATEMENT EXECUTE FUNCTION nhr_audit_refuse_change();
DROP TRIGGER IF EXISTS audit_logs_chain_insert ON audit_logs;
CREATE TRIGGER audit_logs_chain_insert BEFORE INSERT ON audit_logs
  FOR EACH ROW EXECUTE FUNCTION nhr_audit_check_insert();
DROP TRIGGER IF EXISTS audit_chain_head_forward_only ON audit_chain_head;
CREATE TRIGGER audit_chain_head_forward_only BEFORE UPDATE OR DELETE ON audit_chain_head
  FOR EACH ROW EXECUTE FUNCTION nhr_audit_check_head();
DROP TRIGGER IF EXISTS audit_chain_head_no_truncate ON audit_chain_head;
CREATE TRIGGER audit_chain_head_no_truncate BEFORE TRUNCATE ON audit_chain_head
  FOR EACH STATEMENT EXECUTE FUNCTION nhr_audit_refuse_change();
-- The row triggers above are set on the partitioned audit_logs, so they fire on every partition, present and future.
-- A TRUNCATE trigger is per table, and a new partition is writable by the application role's default rights: each
-- partition gets its own TRUNCATE guard and loses those rights (nhr_audit_create_partition does the same for new ones).
SELECT nhr_audit_guard_partition(i.inhrelid::regclass) FROM pg_inherits i WHERE i.inhparent = 'audit_logs'::regclass;
