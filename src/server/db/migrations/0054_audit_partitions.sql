-- Issue 28 item 5 (docs/decisions/057-audit-log-partitioned-by-month.md): audit_logs becomes a table partitioned by
-- month of its "timestamp" (native declarative partitioning: PGlite has no pg_partman), so a past month can be
-- detached for archive after a signed checkpoint. Every row is copied over unchanged (same id, same hash), so the
-- hash chains run on across the partitions exactly as before. PostgreSQL needs the partition key in every unique
-- index: the primary key becomes (id, "timestamp") and the (chain, chain_seq) index stops being unique (the chain head's
-- lock keeps positions unique, and the verifier names a repeated position). Nothing references audit_logs.id
-- (audit_payloads has no foreign key, on purpose: decision 042).

ALTER TABLE "audit_logs" RENAME TO "audit_logs_unpartitioned";--> statement-breakpoint
ALTER TABLE "audit_logs_unpartitioned" RENAME CONSTRAINT "audit_logs_pkey" TO "audit_logs_unpartitioned_pkey";--> statement-breakpoint
ALTER SEQUENCE "audit_logs_id_seq" OWNED BY NONE;--> statement-breakpoint
DROP INDEX "audit_logs_timestamp_idx";--> statement-breakpoint
DROP INDEX "audit_logs_patient_idx";--> statement-breakpoint
DROP INDEX "audit_logs_user_idx";--> statement-breakpoint
DROP INDEX "audit_logs_chain_seq_idx";--> statement-breakpoint
DROP INDEX "audit_logs_action_idx";--> statement-breakpoint
DROP INDEX "audit_logs_break_glass_idx";--> statement-breakpoint
DROP INDEX "audit_logs_review_idx";--> statement-breakpoint
CREATE TABLE "audit_logs" (
	"id" bigint DEFAULT nextval('audit_logs_id_seq') NOT NULL,
	"user_id" text NOT NULL,
	"user_name" varchar(256) NOT NULL,
	"action" varchar(16) NOT NULL,
	"resource_type" varchar(32) NOT NULL,
	"resource_id" text,
	"patient_id" integer,
	"old_values" jsonb,
	"new_values" jsonb,
	"ip_address" varchar(64),
	"user_agent" text,
	"timestamp" timestamp with time zone DEFAULT now() NOT NULL,
	"session_id" varchar(64),
	"facility" varchar(200),
	"compliance_flags" jsonb,
	"payload_hash" varchar(64),
	"chain" smallint NOT NULL,
	"chain_seq" bigint NOT NULL,
	"prev_hash" varchar(64) NOT NULL,
	"hash" varchar(64) NOT NULL,
	CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id", "timestamp")
) PARTITION BY RANGE ("timestamp");--> statement-breakpoint
ALTER SEQUENCE "audit_logs_id_seq" OWNED BY "audit_logs"."id";--> statement-breakpoint
-- Indexes on the partitioned table are created on every partition, present and future.
CREATE INDEX "audit_logs_timestamp_idx" ON "audit_logs" USING btree ("timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_patient_idx" ON "audit_logs" USING btree ("patient_id","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_user_idx" ON "audit_logs" USING btree ("user_id","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_chain_seq_idx" ON "audit_logs" USING btree ("chain","chain_seq");--> statement-breakpoint
CREATE INDEX "audit_logs_action_idx" ON "audit_logs" USING btree ("action","timestamp");--> statement-breakpoint
CREATE INDEX "audit_logs_break_glass_idx" ON "audit_logs" USING btree ("timestamp") WHERE "audit_logs"."compliance_flags" ->> 'type' = 'BREAK_GLASS';--> statement-breakpoint
CREATE INDEX "audit_logs_review_idx" ON "audit_logs" USING btree ("resource_id","timestamp") WHERE "audit_logs"."resource_type" = 'ACCESS_REVIEW';--> statement-breakpoint
-- Migration 0025's estimate, on the parent (for plans over several months) and on each partition (below).
ALTER TABLE "audit_logs" ALTER COLUMN "user_id" SET (n_distinct = 2000);--> statement-breakpoint
-- 2. The guards of one partition that a partitioned table cannot give it: the row triggers of
--    docs/security/audit-append-only.sql are set on audit_logs and so fire on every partition, but a TRUNCATE trigger
--    is per table, and the application role's default rights on a new table include writing to it. Does nothing
--    before audit-append-only.sql has been run (no nhr_audit_refuse_change): that script calls it for every partition.
CREATE FUNCTION nhr_audit_guard_partition(p_partition regclass) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_grantee text;
BEGIN
  IF to_regproc('nhr_audit_refuse_change') IS NULL THEN
    RETURN;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_trigger WHERE tgrelid = p_partition AND tgname = 'audit_partition_no_truncate') THEN
    EXECUTE format('CREATE TRIGGER audit_partition_no_truncate BEFORE TRUNCATE ON %s
      FOR EACH STATEMENT EXECUTE FUNCTION nhr_audit_refuse_change()', p_partition);
  END IF;
  EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON %s FROM PUBLIC', p_partition);
  FOR v_grantee IN
    SELECT DISTINCT quote_ident(pg_get_userbyid(a.grantee)) FROM pg_class c, aclexplode(c.relacl) a
    WHERE c.oid = p_partition AND a.grantee <> 0 AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('REVOKE INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER ON %s FROM %s', p_partition, v_grantee);
  END LOOP;
END
$$;--> statement-breakpoint
-- 3. One month's partition, audit_logs_YYYY_MM for the month holding p_month; nothing when it exists (attached).
CREATE FUNCTION nhr_audit_create_partition(p_month date) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_from date := date_trunc('month', p_month)::date;
  v_name text := 'audit_logs_' || to_char(date_trunc('month', p_month), 'YYYY_MM');
BEGIN
  IF EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = 'audit_logs'::regclass AND c.relname = v_name) THEN
    RETURN NULL;
  END IF;
  -- Month bounds in UTC, whatever the session's time zone: the archive's months are UTC months.
  EXECUTE format('CREATE TABLE %I PARTITION OF audit_logs FOR VALUES FROM (%L) TO (%L)', v_name,
    v_from::text || ' 00:00:00+00', (v_from + interval '1 month')::date::text || ' 00:00:00+00');
  EXECUTE format('ALTER TABLE %I ALTER COLUMN user_id SET (n_distinct = 2000)', v_name);
  PERFORM nhr_audit_guard_partition(v_name::regclass);
  RETURN v_name;
END
$$;--> statement-breakpoint
-- Only the owner creates and guards partitions directly; the application asks through nhr_audit_ensure_partitions.
REVOKE ALL ON FUNCTION nhr_audit_create_partition(date), nhr_audit_guard_partition(regclass) FROM PUBLIC;--> statement-breakpoint
-- 4. The partitions of this month and the next p_ahead months (the application calls it at start and daily:
--    src/server/audit/audit-partitions.ts). No default partition: see decision 057.
CREATE FUNCTION nhr_audit_ensure_partitions(p_ahead integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  v_created integer := 0;
  v_month date;
BEGIN
  FOR v_month IN
    SELECT generate_series(date_trunc('month', now() AT TIME ZONE 'UTC'),
      date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => p_ahead), interval '1 month')::date
  LOOP
    IF nhr_audit_create_partition(v_month) IS NOT NULL THEN
      v_created := v_created + 1;
    END IF;
  END LOOP;
  RETURN v_created;
END
$$;--> statement-breakpoint
-- The months detached for archive, each with its signed checkpoint (src/server/audit/audit-archive.ts): the verifier
-- starts each chain from the latest one's chain ends.
CREATE TABLE "audit_archives" (
	"month" varchar(7) PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checkpoint" jsonb NOT NULL,
	"detached_at" timestamp with time zone
);--> statement-breakpoint
-- 5. A partition for every month that has rows, and for the months ahead; then the rows, unchanged.
SELECT nhr_audit_create_partition(m::date) FROM generate_series(
  date_trunc('month', coalesce((SELECT min("timestamp") FROM "audit_logs_unpartitioned"), now()) AT TIME ZONE 'UTC'),
  date_trunc('month', now() AT TIME ZONE 'UTC'), interval '1 month') AS m;--> statement-breakpoint
SELECT nhr_audit_ensure_partitions(3);--> statement-breakpoint
INSERT INTO "audit_logs" ("id", "user_id", "user_name", "action", "resource_type", "resource_id", "patient_id", "old_values",
  "new_values", "ip_address", "user_agent", "timestamp", "session_id", "facility", "compliance_flags", "payload_hash", "chain",
  "chain_seq", "prev_hash", "hash")
SELECT "id", "user_id", "user_name", "action", "resource_type", "resource_id", "patient_id", "old_values", "new_values",
  "ip_address", "user_agent", "timestamp", "session_id", "facility", "compliance_flags", "payload_hash", "chain", "chain_seq",
  "prev_hash", "hash"
FROM "audit_logs_unpartitioned";--> statement-breakpoint
-- 6. The old table's rights and guard triggers, carried over (audit-append-only.sql, when it has been run, set them;
--    it sets them again on its next run). The row triggers are set after the copy: the insert guard would refuse it.
DO $$
DECLARE
  v record;
BEGIN
  FOR v IN
    SELECT DISTINCT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee
    FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = 'audit_logs'::regclass AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('REVOKE ALL ON audit_logs FROM %s', v.grantee);
  END LOOP;
  FOR v IN
    SELECT CASE WHEN a.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(a.grantee)) END AS grantee, a.privilege_type
    FROM pg_class c, aclexplode(c.relacl) a WHERE c.oid = 'audit_logs_unpartitioned'::regclass AND a.grantee <> c.relowner
  LOOP
    EXECUTE format('GRANT %s ON audit_logs TO %s', v.privilege_type, v.grantee);
  END LOOP;
  IF to_regproc('nhr_audit_refuse_change') IS NOT NULL THEN
    CREATE TRIGGER audit_logs_append_only BEFORE UPDATE OR DELETE ON audit_logs
      FOR EACH ROW EXECUTE FUNCTION nhr_audit_refuse_change();
    CREATE TRIGGER audit_logs_no_truncate BEFORE TRUNCATE ON audit_logs
      FOR EACH STATEMENT EXECUTE FUNCTION nhr_audit_refuse_change();
  END IF;
  IF to_regproc('nhr_audit_check_insert') IS NOT NULL THEN
    CREATE TRIGGER audit_logs_chain_insert BEFORE INSERT ON audit_logs
      FOR EACH ROW EXECUTE FUNCTION nhr_audit_check_insert();
  END IF;
END
$$;--> statement-breakpoint
DROP TABLE "audit_logs_unpartitioned";--> statement-breakpoint
ANALYZE "audit_logs";
