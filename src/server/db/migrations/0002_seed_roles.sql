-- Roles (SPEC §6 ids; 1 is the System Administrator made by first-time setup) and the permission matrix of DESIGN.md §4.
INSERT INTO roles (id, name, display_name, description) VALUES
  (1, 'system_admin', 'System Administrator', 'The first administrator, created by first-time setup'),
  (2, 'admin', 'Administrator', 'Adds patients and approves staff registrations'),
  (3, 'doctor', 'Doctor', 'Reads and edits clinical records'),
  (4, 'nurse', 'Nurse', 'Reads and edits clinical records'),
  (5, 'receptionist', 'Receptionist', 'Searches and registers patients'),
  (6, 'auditor', 'Auditor', 'Reads audit logs and compliance reports'),
  (403, 'paramedic', 'Paramedic', 'Emergency care: reads and edits clinical records'),
  (404, 'intermediate_life_support', 'Intermediate Life Support', 'Emergency care: reads and edits clinical records'),
  (405, 'basic_life_support', 'Basic Life Support', 'Emergency care: reads clinical records')
ON CONFLICT (id) DO NOTHING;
--> statement-breakpoint
INSERT INTO permissions (name, display_name, resource, action, description) VALUES
  ('patients.search', 'Search patients', 'patients', 'search', 'Find patients by name, date of birth or NC number'),
  ('patients.create', 'Add patients', 'patients', 'create', 'Register new patients'),
  ('records.read', 'Read clinical records', 'records', 'read', 'Open a patient record after access confirmation'),
  ('records.write', 'Edit clinical records', 'records', 'write', 'Add and delete clinical entries'),
  ('audit.read', 'Read audit logs', 'audit', 'read', 'Read the audit trail'),
  ('reports.read', 'Read compliance reports', 'reports', 'read', 'List and download compliance reports'),
  ('reports.generate', 'Generate compliance reports', 'reports', 'generate', 'Generate compliance reports'),
  ('users.approve', 'Approve users', 'users', 'approve', 'Approve and reject staff registrations')
ON CONFLICT (name) DO NOTHING;
--> statement-breakpoint
INSERT INTO role_permissions (role_id, permission_id)
SELECT m.role_id, p.id
FROM (VALUES
  (1, 'patients.search'), (1, 'patients.create'), (1, 'audit.read'), (1, 'reports.read'), (1, 'reports.generate'), (1, 'users.approve'),
  (2, 'patients.search'), (2, 'patients.create'), (2, 'audit.read'), (2, 'reports.read'), (2, 'reports.generate'), (2, 'users.approve'),
  (3, 'patients.search'), (3, 'records.read'), (3, 'records.write'),
  (4, 'patients.search'), (4, 'records.read'), (4, 'records.write'),
  (5, 'patients.search'), (5, 'patients.create'),
  (6, 'audit.read'), (6, 'reports.read'), (6, 'reports.generate'),
  (403, 'patients.search'), (403, 'records.read'), (403, 'records.write'),
  (404, 'patients.search'), (404, 'records.read'), (404, 'records.write'),
  (405, 'patients.search'), (405, 'records.read')
) AS m(role_id, permission_name)
JOIN permissions p ON p.name = m.permission_name
ON CONFLICT (role_id, permission_id) DO NOTHING;
