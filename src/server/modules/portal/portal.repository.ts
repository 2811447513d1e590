// The patient's own record, read for the portal (SPEC §3 portal field names). Every query is scoped by the one
// patient id the caller passes: the signed-in patient's, never a request parameter.
import { desc, eq } from 'drizzle-orm';
import { writeAudit, type AuditEntry } from '../../audit/audit-writer';
import type { Db, DbOrTx } from '../../db/client';
import { patientDetailsColumns } from '../../db/patient-columns';
import { allergies, appointments, diagnoses, medications, patients, vaccines } from '../../db/schema';
import type { PatientDetails } from '../../../contracts/patients';
import type { PortalAllergy, PortalAppointment, PortalDiagnosis, PortalMedication, PortalVaccine } from '../../../contracts/portal';

/** A patient's demographics: the shape the registry's contract defines. */
export type PatientRow = PatientDetails;

export interface PortalRows {
  patient: PatientRow;
  diagnoses: PortalDiagnosis[];
  appointments: PortalAppointment[];
  allergies: PortalAllergy[];
  medications: PortalMedication[];
  vaccines: PortalVaccine[];
}

function selectPatient(tx: DbOrTx, patientId: number): Promise<PatientRow[]> {
  return tx.select(patientDetailsColumns).from(patients).where(eq(patients.id, patientId));
}

async function selectLists(tx: DbOrTx, patientId: number): Promise<Omit<PortalRows, 'patient'>> {
  const d = diagnoses;
  const a = appointments;
  const m = medications;
  const v = vaccines;
  // One connection inside a transaction: the five reads run one after another.
  const diagnosisRows = await tx
    .select({
      id: d.id,
      condition: d.condition,
      status: d.status,
      diagnosedDate: d.diagnosedDate,
      resolvedDate: d.resolvedDate,
      description: d.description,
      doctor: d.doctor,
      facility: d.facility,
    })
    .from(d)
    .where(eq(d.patientId, patientId))
    .orderBy(desc(d.diagnosedDate), desc(d.id));
  const appointmentRows = await tx
    .select({
      id: a.id,
      type: a.type,
      date: a.date,
      time: a.time,
      findings: a.findings,
      status: a.status,
      doctor: a.doctor,
      facility: a.facility,
    })
    .from(a)
    .where(eq(a.patientId, patientId))
    .orderBy(desc(a.date), desc(a.id));
  const allergyRows = await tx
    .select({
      id: allergies.id,
      allergen: allergies.allergen,
      reaction: allergies.reaction,
      severity: allergies.severity,
      reportedDate: allergies.reportedDate,
    })
    .from(allergies)
    .where(eq(allergies.patientId, patientId))
    .orderBy(desc(allergies.reportedDate), desc(allergies.id));
  const medicationRows = await tx
    .select({
      id: m.id,
      medication: m.name,
      dosage: m.dosage,
      frequency: m.frequency,
      purpose: m.purpose,
      status: m.status,
      prescribedDate: m.prescribedDate,
      discontinuedDate: m.discontinuedDate,
      doctor: m.prescribedBy,
      nextReview: m.nextReview,
    })
    .from(m)
    .where(eq(m.patientId, patientId))
    .orderBy(desc(m.prescribedDate), desc(m.id));
  const vaccineRows = await tx
    .select({
      id: v.id,
      vaccine: v.vaccine,
      date: v.date,
      dose: v.dose,
      facility: v.facility,
      nextDue: v.nextDue,
      batchNumber: v.batchNumber,
    })
    .from(v)
    .where(eq(v.patientId, patientId))
    .orderBy(desc(v.date), desc(v.id));
  return {
    diagnoses: diagnosisRows,
    appointments: appointmentRows,
    allergies: allergyRows,
    medications: medicationRows,
    vaccines: vaccineRows,
  };
}

/**
 * The patient and their five lists, with the audit row of this read in the same transaction (DESIGN.md §6):
 * nothing is returned unless it was recorded. Null (and no audit row) when the patient no longer exists.
 */
export async function readPortalRecord(db: Db, patientId: number, audit: AuditEntry): Promise<PortalRows | null> {
  return db.transaction(async (tx) => {
    const [patient] = await selectPatient(tx, patientId);
    if (!patient) return null;
    const lists = await selectLists(tx, patientId);
    await writeAudit(tx, audit);
    return { patient, ...lists };
  });
}
