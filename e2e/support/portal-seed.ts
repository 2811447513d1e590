// The portal journey's data, written straight into the app's database (there is no admin API for patients or
// clinical rows in this tree yet): one patient with a row in every list, a doctor, a receptionist, and the audit rows
// the doctor's access confirmations write (consent, then break-the-glass with a reason). The patient's portal
// activation code is issued through the real service (decision 016), or, with `activated`, also used with
// PATIENT_PIN, for journeys that only sign in.
// PGlite is one process: seed its data folder before the server starts. PostgreSQL: seed while it runs.
import { openDatabase } from '../../src/server/db/client';
import { allergiesTable as allergies } from '../../src/server/modules/records/kinds/allergies';
import { appointmentsTable as appointments } from '../../src/server/modules/records/kinds/appointments';
import { diagnosesTable as diagnoses } from '../../src/server/modules/records/kinds/diagnoses';
import { medicationsTable as medications } from '../../src/server/modules/records/kinds/medications';
import { vaccinesTable as vaccines } from '../../src/server/modules/records/kinds/vaccines';
import {
  activatePatient,
  insertPatient,
  issueActivationCode,
  recordClinicianAccess,
  type SeededPatient,
} from '../../src/server/test/portal-fixtures';
import { createStaffUser } from '../../src/server/test/staff';

export const DOCTOR = {
  firstName: 'Tangeni',
  lastName: 'Amutenya',
  email: 'tangeni.amutenya@health.gov.na',
  password: 'stethoscope-42',
  facility: 'Katutura State Hospital',
};
/** A receptionist (patients.create), who issues portal activation codes at the desk. */
export const DESK = {
  firstName: 'Selma',
  lastName: 'Iyambo',
  email: 'selma.iyambo@health.gov.na',
  password: 'front-desk-ondangwa-5',
  facility: 'Onandjokwe Hospital',
};
export { PATIENT_PIN } from '../../src/server/test/portal-fixtures';
export const BREAK_GLASS_REASON = 'Brought in unconscious after a road accident';

export interface PortalJourneyData {
  patient: SeededPatient;
  /** The patient's activation code (XXXX-XXXX), or null when seeded `activated` (the PIN is PATIENT_PIN). */
  patientCode: string | null;
  /** A patient with nothing on record and no accesses, not activated. */
  newcomer: SeededPatient;
}

export async function seedPortalJourney(target: {
  dataDir?: string;
  databaseUrl?: string;
  activated?: boolean;
}): Promise<PortalJourneyData> {
  const handle = await openDatabase({ databaseUrl: target.databaseUrl, dataDir: target.dataDir ?? 'memory://', poolSize: 2 });
  try {
    await handle.migrate();
    const db = handle.db;
    await createStaffUser(db, { roleId: 1 }); // first-time setup was done: an active system administrator exists
    const patient = await insertPatient(db, {
      firstName: 'Ndinelao',
      lastName: 'Haufiku',
      dateOfBirth: '1990-07-21',
      sex: 'Female',
      contactNumber: '+264 81 234 5678',
      address: '14 Nangolo Street, Ondangwa, Oshana',
      nextOfKin: 'Selma Haufiku',
      nextOfKinContact: '+264 81 876 5432',
    });
    const patientId = patient.id;
    await db.insert(diagnoses).values([
      {
        patientId,
        condition: 'Hypertension',
        status: 'Active',
        diagnosedDate: '2023-05-14',
        description: 'Monitor blood pressure monthly',
        doctor: 'Dr T. Amutenya',
        facility: DOCTOR.facility,
      },
      {
        patientId,
        condition: 'Malaria',
        status: 'Resolved',
        diagnosedDate: '2021-02-03',
        resolvedDate: '2021-02-20',
        doctor: 'Dr L. Shilongo',
        facility: 'Oshakati State Hospital',
      },
    ]);
    await db.insert(appointments).values({
      patientId,
      type: 'Blood pressure review',
      date: '2026-04-09',
      time: '10:30',
      status: 'Scheduled',
      doctor: 'Dr T. Amutenya',
      facility: DOCTOR.facility,
    });
    await db.insert(allergies).values([
      { patientId, allergen: 'Penicillin', reaction: 'Swelling and hives', severity: 'Severe', reportedDate: '2019-08-30' },
      { patientId, allergen: 'Dust mites', reaction: 'Sneezing', severity: 'Mild', reportedDate: '2020-01-15' },
    ]);
    await db.insert(medications).values({
      patientId,
      name: 'Amlodipine',
      dosage: '5mg',
      frequency: 'Once daily',
      purpose: 'Blood pressure',
      status: 'Active',
      prescribedDate: '2023-05-14',
      prescribedBy: 'Dr T. Amutenya',
      nextReview: '2026-05-14',
    });
    await db.insert(vaccines).values({
      patientId,
      vaccine: 'Tetanus toxoid',
      date: '2024-11-02',
      dose: 'Booster',
      facility: 'Oshakati State Hospital',
      batchNumber: 'TT-2024-118',
    });
    const doctor = await createStaffUser(db, { roleId: 3, ...DOCTOR });
    const clinician = { userId: doctor.id, userName: `${DOCTOR.firstName} ${DOCTOR.lastName}`, facility: DOCTOR.facility };
    await recordClinicianAccess(db, clinician, patientId, { consent: true });
    await recordClinicianAccess(db, clinician, patientId, { consent: false, reason: BREAK_GLASS_REASON });
    await createStaffUser(db, { roleId: 5, ...DESK });
    let patientCode: string | null = null;
    if (target.activated) await activatePatient(db, patient);
    else patientCode = (await issueActivationCode(db, patientId)).code;
    const newcomer = await insertPatient(db, { firstName: 'Petrus', lastName: 'Iipumbu', dateOfBirth: '2001-12-01', sex: 'Male' });
    return { patient, patientCode, newcomer };
  } finally {
    await handle.close();
  }
}
