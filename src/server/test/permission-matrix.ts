// DESIGN.md §4 written out as data, independently of the seed migration, for table-driven permission tests:
// a test asks `allows(roleId, permission)` and compares with what the server answers.
import { ROLE_IDS, type Permission } from '../../contracts/constants';

const R = ROLE_IDS;
const admins = [R.systemAdmin, R.admin];
const clinical = [R.doctor, R.nurse, R.paramedic, R.intermediateLifeSupport];

/** The roles holding each permission (DESIGN.md §4 table). */
export const DESIGN_MATRIX: Record<Permission, readonly number[]> = {
  'patients.search': [
    ...admins,
    R.doctor,
    R.nurse,
    R.receptionist,
    R.paramedic,
    R.intermediateLifeSupport,
    R.basicLifeSupport,
    R.healthInformationOfficer,
  ],
  'patients.create': [...admins, R.receptionist],
  'records.read': [...clinical, R.basicLifeSupport],
  'records.write': clinical,
  'audit.read': [...admins, R.auditor],
  'reports.read': [...admins, R.auditor],
  'reports.generate': [...admins, R.auditor],
  'users.approve': admins,
  'audit.review': [R.systemAdmin, R.auditor],
  'patients.restrict': admins,
  'immunizations.schedule': admins,
  'defaulters.read': [R.doctor, R.nurse],
  'patients.merge': [...admins, R.healthInformationOfficer],
};

/** Every role id of SPEC §6, 1-6 and 403-405. */
export const ALL_ROLE_IDS: readonly number[] = Object.values(ROLE_IDS);

export const allows = (roleId: number, permission: Permission): boolean => DESIGN_MATRIX[permission].includes(roleId);

export const permissionsOf = (roleId: number): Permission[] =>
  (Object.keys(DESIGN_MATRIX) as Permission[]).filter((p) => allows(roleId, p)).sort();
