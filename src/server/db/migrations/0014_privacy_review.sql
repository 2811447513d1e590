-- Privacy review of break-the-glass accesses (docs/decisions/018-privacy-review.md).
-- audit.review (System Administrator, Auditor) opens the review queue and records verdicts; the verdicts are
-- audit rows themselves (resource_type ACCESS_REVIEW, resource_id = the reviewed break-the-glass row's id).
-- patients.restrict (System Administrator, Administrator) marks a record VIP/restricted.
INSERT INTO permissions (name, display_name, resource, action, description) VALUES
  ('audit.review', 'Review break-the-glass accesses', 'audit', 'review', 'Review emergency record accesses and record a verdict'),
  ('patients.restrict', 'Mark records restricted', 'patients', 'restrict', 'Mark a patient record VIP/restricted')
ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
INSERT INTO role_permissions (role_id, permission_id)
SELECT m.role_id, p.id
FROM (VALUES (1, 'audit.review'), (6, 'audit.review'), (1, 'patients.restrict'), (2, 'patients.restrict')) AS m(role_id, permission_name)
JOIN permissions p ON p.name = m.permission_name
ON CONFLICT (role_id, permission_id) DO NOTHING;
--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "restricted" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "address" varchar(300);--> statement-breakpoint
-- The latest verdict of each break-the-glass row: one index probe per queue row.
CREATE INDEX "audit_logs_review_idx" ON "audit_logs" USING btree ("resource_id","timestamp") WHERE "audit_logs"."resource_type" = 'ACCESS_REVIEW';
