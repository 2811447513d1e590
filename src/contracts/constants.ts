// Business constants of SPEC §9 shared by client and server.
export const NC_NUMBER_LENGTH = 11;
export const AGE_MIN = 0;
export const AGE_MAX = 150;
export const PASSWORD_MIN = 8;
export const NAME_MIN = 2;

export const SETUP_DEPARTMENTS = [
  'administration',
  'emergency',
  'internal-medicine',
  'surgery',
  'pediatrics',
  'obstetrics',
  'radiology',
  'laboratory',
  'pharmacy',
  'nursing',
  'it',
] as const;

export const REGISTRATION_DEPARTMENTS = [
  'Emergency',
  'Internal Medicine',
  'Pediatrics',
  'Surgery',
  'Obstetrics',
  'Radiology',
  'Laboratory',
  'Pharmacy',
  'Nursing',
  'Paramedicine',
  'Administration',
] as const;

export const PROFILE_DEPARTMENTS = [
  'Emergency',
  'Cardiology',
  'Pediatrics',
  'Oncology',
  'Surgery',
  'Internal Medicine',
  'Radiology',
  'Laboratory',
  'Ambulance Services',
  'Administration',
] as const;

export const FACILITIES = [
  'Windhoek Central Hospital',
  'Katutura State Hospital',
  'Oshakati State Hospital',
  'Rundu State Hospital',
  'Walvis Bay State Hospital',
  'Gobabis State Hospital',
  'Emed',
  'Lifelink',
  'Oshmed',
  'NUST',
  'MVA',
  'MR24',
] as const;

/** Role ids of SPEC §6 and DESIGN.md §4. */
export const ROLE_IDS = {
  systemAdmin: 1,
  admin: 2,
  doctor: 3,
  nurse: 4,
  receptionist: 5,
  auditor: 6,
  paramedic: 403,
  intermediateLifeSupport: 404,
  basicLifeSupport: 405,
  healthInformationOfficer: 7,
} as const;

export const PERMISSIONS = [
  'patients.search',
  'patients.create',
  'records.read',
  'records.write',
  'audit.read',
  'reports.read',
  'reports.generate',
  'users.approve',
  'audit.review',
  'patients.restrict',
  'immunizations.schedule',
  'defaulters.read',
  'patients.merge',
] as const;
export type Permission = (typeof PERMISSIONS)[number];
