// Audit vocabulary (SPEC §3, §4, §9; DESIGN.md §6).
export const AUDIT_ACTIONS = ['CREATE', 'UPDATE', 'DELETE', 'VIEW', 'SEARCH'] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** SPEC §9 resource types, plus the ones DESIGN.md adds (vital signs, the audit log and reports themselves, users). */
export const AUDIT_RESOURCE_TYPES = [
  'PATIENT',
  'DIAGNOSIS',
  'APPOINTMENT',
  'ALLERGY',
  'MEDICATION',
  'VACCINE',
  'VITALS',
  'AUDIT_LOG',
  'COMPLIANCE_REPORT',
  'USER',
] as const;
export type AuditResourceType = (typeof AUDIT_RESOURCE_TYPES)[number];

export const REPORT_TYPES = ['HIPAA', 'ACCESS_LOG', 'DATA_MODIFICATION'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];
