// Patients with clinical rows, inserted directly, and the audit rows a clinician's access confirmation writes
// (POST /api/patients/{id}/access, DESIGN.md §4), for portal tests and journeys; patient sign-in through the real
// activation (decision 016).
import { primaryReads } from '../db/read-db';
import type { PortalActivation } from '../../contracts/portal';
import { writeAudit, type AuditActor } from '../audit/audit-writer';
import { loadConfig } from '../config';
import type { StaffActor } from '../context/actor';
import { staffActorFor } from '../context/request-context';
import type { Db } from '../db/client';
import { patients } from '../db/schema';
import { allergiesTable as allergies } from '../modules/records/kinds/allergies';
import { appointmentsTable as appointments } from '../modules/records/kinds/appointments';
import { diagnosesTable as diagnoses } from '../modules/records/kinds/diagnoses';
import { medicationsTable as medications } from '../modules/records/kinds/medications';
import { vaccinesTable as vaccines } from '../modules/records/kinds/vaccines';
import { activatePortal, issuePortalActivation } from '../modules/portal/portal-activation.service';
import { testMeta } from './audit-fixtures';
import { createStaffUser } from './staff';
import type { TestApp } from './test-app';

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

/** The PIN test patients choose when their portal is activated through the fixtures. */
export const PATIENT_PIN = '482917';

/** Patients whose portal the fixtures activated (with PATIENT_PIN), per database. */
const activated = new WeakMap<Db, Set<number>>();
const activatedIn = (db: Db): Set<number> => {
  let done = activated.get(db);
  if (!done) activated.set(db, (done = new Set()));
  return done;
};

const noRequest = { ip: '10.255.255.254', userAgent: 'portal-fixtures', sessionHash: null };

/** A receptionist (patients.create) per database, who issues the fixtures' activation codes at the desk. */
const desks = new WeakMap<Db, Promise<StaffActor>>();
function deskActor(db: Db): Promise<StaffActor> {
  let desk = desks.get(db);
  if (!desk) {
    desk = (async () => {
      const user = await createStaffUser(db, { roleId: 5, firstName: 'Front', lastName: 'Desk' });
      const actor = await staffActorFor(db, user.id);
      if (!actor) throw new Error('portal-fixtures: the desk user has no actor');
      return actor;
    })();
    desks.set(db, desk);
  }
  return desk;
}

/** Issues an activation code as a clinic desk does (POST /api/patients/{id}/portal-activation's service). */
export async function issueActivationCode(db: Db, patientId: number, now: Date = new Date()): Promise<PortalActivation> {
  return issuePortalActivation({ db, actor: await deskActor(db), meta: noRequest, now }, patientId);
}

/**
 * Activates a patient's portal through the real services: a desk issues a code, the patient uses it with NC number,
 * date of birth and the new PIN (POST /api/auth/patient-activate's service). For journeys that sign in with a PIN.
 */
export async function activatePatient(
  db: Db,
  patient: Pick<SeededPatient, 'id' | 'ncNumber' | 'dateOfBirth'>,
  pin = PATIENT_PIN,
  now: () => Date = () => new Date(),
): Promise<void> {
  const { code } = await issueActivationCode(db, patient.id, now());
  await activatePortal(
    // The fixture is not a sign-in under test: the limits on failed sign-ins across numbers (decision 032) stay out of it.
    {
      db,
      readDb: primaryReads(db),
      config: { ...loadConfig({}), portalSignIn: { failuresPerIp: 1_000_000, failuresPerMinute: 1_000_000 }, now },
    },
    { ncNumber: patient.ncNumber, dateOfBirth: patient.dateOfBirth, activationCode: code, pin },
    noRequest,
  );
  activatedIn(db).add(patient.id);
}

const sessionCookie = (res: { statusCode: number; body: string; cookies: { name: string; value: string }[] }, what: string): string => {
  if (res.statusCode !== 200) throw new Error(`signInPatient (${what}) answered ${res.statusCode}: ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'nhr_sid');
  if (!cookie) throw new Error('signInPatient: no session cookie');
  return `nhr_sid=${cookie.value}`;
};

/**
 * Signs a patient in as the portal does (decision 016); returns the Cookie header value. Throws unless 200. The first
 * time for a patient: a desk issues a code through the service and the patient activates it (POST
 * /api/auth/patient-activate) with PATIENT_PIN; later: POST /api/auth/patient-login with NC number, date of birth
 * and PIN.
 */
export async function signInPatient(
  t: Pick<TestApp, 'app' | 'db' | 'config'>,
  patient: Pick<SeededPatient, 'id' | 'ncNumber' | 'dateOfBirth'>,
  remoteAddress = '127.0.0.1',
): Promise<string> {
  const done = activatedIn(t.db);
  const claim = { ncNumber: patient.ncNumber, dateOfBirth: patient.dateOfBirth, pin: PATIENT_PIN };
  if (done.has(patient.id)) {
    return sessionCookie(await t.app.inject({ method: 'POST', url: '/api/auth/patient-login', payload: claim, remoteAddress }), 'PIN');
  }
  const { code } = await issueActivationCode(t.db, patient.id, t.config.now());
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/patient-activate',
    payload: { ...claim, activationCode: code },
    remoteAddress,
  });
  const cookie = sessionCookie(res, 'activation');
  done.add(patient.id);
  return cookie;
}
