// Patients with clinical rows, inserted directly, and the audit rows a clinician's access confirmation writes
// (POST /api/patients/{id}/access, DESIGN.md §4), for portal tests and journeys.
import type { FastifyInstance } from 'fastify';
import { writeAudit, type AuditActor } from '../audit/audit-writer';
import type { Db } from '../db/client';
import { allergies, appointments, diagnoses, medications, patients, vaccines } from '../db/schema';
import { testMeta } from './audit-fixtures';

/** A small deterministic random source (mulberry32), so a property-style test fails the same way twice. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeededPatient {
  id: number;
  ncNumber: string;
  dateOfBirth: string;
  firstName: string;
  lastName: string;
}

let serial = 0;
/** A fresh 11-digit NC number (unique within a test run). */
export const nextNcNumber = (): string => `7${String(process.pid % 1000).padStart(3, '0')}${String(++serial).padStart(7, '0')}`;

export async function insertPatient(db: Db, overrides: Partial<typeof patients.$inferInsert> = {}): Promise<SeededPatient> {
  const [row] = await db
    .insert(patients)
    .values({
      firstName: 'Maria',
      lastName: 'Nangolo',
      dateOfBirth: '1985-04-12',
      sex: 'Female',
      idNumber: nextNcNumber(),
      contactNumber: '+264 81 555 0101',
      address: '12 Independence Avenue, Windhoek, Khomas',
      nextOfKin: 'Petrus Nangolo',
      nextOfKinContact: '+264 81 555 0102',
      ...overrides,
    })
    .returning({
      id: patients.id,
      ncNumber: patients.idNumber,
      dateOfBirth: patients.dateOfBirth,
      firstName: patients.firstName,
      lastName: patients.lastName,
    });
  return { ...row!, dateOfBirth: row!.dateOfBirth ?? '' };
}

export interface ClinicalCounts {
  diagnoses: number;
  appointments: number;
  allergies: number;
  medications: number;
  vaccines: number;
}

/** Clinical rows for one patient; every text names the patient's tag, so a leak to another patient is visible. */
export async function insertClinicalRows(db: Db, patientId: number, counts: ClinicalCounts, tag = `P${patientId}`): Promise<void> {
  const day = (i: number): string => `20${String(10 + (i % 15)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`;
  const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
  if (counts.diagnoses) {
    await db.insert(diagnoses).values(
      range(counts.diagnoses).map((i) => ({
        patientId,
        condition: `Condition ${tag}-${i}`,
        status: i % 2 ? 'Resolved' : 'Active',
        diagnosedDate: day(i),
        resolvedDate: i % 2 ? day(i + 1) : null,
        description: `Notes ${tag}-${i}`,
        doctor: `Dr ${tag}`,
        facility: 'Oshakati State Hospital',
      })),
    );
  }
  if (counts.appointments) {
    await db.insert(appointments).values(
      range(counts.appointments).map((i) => ({
        patientId,
        type: `Check-up ${tag}-${i}`,
        date: day(i),
        time: '09:30',
        findings: i % 2 ? null : `Findings ${tag}-${i}`,
        status: i % 2 ? 'Completed' : 'Scheduled',
        doctor: `Dr ${tag}`,
        facility: 'Katutura State Hospital',
      })),
    );
  }
  if (counts.allergies) {
    await db.insert(allergies).values(
      range(counts.allergies).map((i) => ({
        patientId,
        allergen: `Allergen ${tag}-${i}`,
        reaction: `Rash ${tag}-${i}`,
        severity: ['Mild', 'Moderate', 'Severe'][i % 3]!,
        reportedDate: day(i),
      })),
    );
  }
  if (counts.medications) {
    await db.insert(medications).values(
      range(counts.medications).map((i) => ({
        patientId,
        name: `Medicine ${tag}-${i}`,
        dosage: '500mg',
        frequency: 'Twice daily',
        purpose: `Purpose ${tag}-${i}`,
        status: i % 2 ? 'Completed' : 'Active',
        prescribedDate: day(i),
        discontinuedDate: null,
        prescribedBy: `Dr ${tag}`,
        nextReview: i % 2 ? null : day(i + 2),
      })),
    );
  }
  if (counts.vaccines) {
    await db.insert(vaccines).values(
      range(counts.vaccines).map((i) => ({
        patientId,
        vaccine: `Vaccine ${tag}-${i}`,
        date: day(i),
        dose: `Dose ${i + 1}`,
        facility: 'Rundu State Hospital',
        nextDue: null,
        batchNumber: i % 2 ? null : `B-${tag}-${i}`,
      })),
    );
  }
}

/** The audit row a clinician's access confirmation writes: consent, or break-the-glass with the stated reason. */
export async function recordClinicianAccess(
  db: Db,
  clinician: AuditActor,
  patientId: number,
  access: { consent: true } | { consent: false; reason: string },
): Promise<void> {
  await writeAudit(db, {
    actor: clinician,
    meta: { ...testMeta },
    action: 'VIEW',
    resourceType: 'PATIENT',
    resourceId: patientId,
    patientId,
    complianceFlags: access.consent ? { type: 'CONSENT' } : { type: 'BREAK_GLASS', reason: access.reason },
  });
}

/** Signs a patient in through POST /api/auth/patient-login; returns the Cookie header value. Throws unless 200. */
export async function signInPatient(
  app: FastifyInstance,
  patient: Pick<SeededPatient, 'ncNumber' | 'dateOfBirth'>,
  remoteAddress = '127.0.0.1',
): Promise<string> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/patient-login',
    payload: { ncNumber: patient.ncNumber, dateOfBirth: patient.dateOfBirth },
    remoteAddress,
  });
  if (res.statusCode !== 200) throw new Error(`signInPatient answered ${res.statusCode}: ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'nhr_sid');
  if (!cookie) throw new Error('signInPatient: no session cookie');
  return `nhr_sid=${cookie.value}`;
}
