// Fixtures for the privacy review tests: staff signed in from a chosen address, patients with a chosen surname and
// address, and break-the-glass accesses made through the real access route.
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { randomNcNumber } from './patient-fixtures';
import { queryOne } from './sql';
import { createStaffUser, DEFAULT_PASSWORD, type StaffUserOptions } from './staff';

export interface SignedInStaff {
  id: string;
  email: string;
  cookie: string;
}

/** Signs in through POST /api/auth/login from `ip` (the request's remote address). */
export async function signInFrom(app: FastifyInstance, email: string, ip: string, password = DEFAULT_PASSWORD): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress: ip });
  if (res.statusCode !== 200) throw new Error(`signInFrom(${email}, ${ip}) answered ${res.statusCode}: ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'nhr_sid');
  if (!cookie) throw new Error('signInFrom: no session cookie');
  return `nhr_sid=${cookie.value}`;
}

/** A new active user (paramedic unless told otherwise), signed in from `ip`. */
export async function staffFrom(
  app: FastifyInstance,
  db: Db,
  options: Partial<StaffUserOptions> = {},
  ip = '127.0.0.1',
): Promise<SignedInStaff> {
  const user = await createStaffUser(db, { roleId: 403, ...options });
  return { id: user.id, email: user.email, cookie: await signInFrom(app, user.email, ip) };
}

export async function insertPatientAt(
  db: Db,
  lastName: string,
  address: string,
  firstName = 'Selma',
): Promise<{ id: number; idNumber: string }> {
  const idNumber = randomNcNumber();
  const row = await queryOne<{ id: number }>(
    db,
    sql`INSERT INTO patients (first_name, last_name, date_of_birth, sex, id_number, address)
        VALUES (${firstName}, ${lastName}, '1985-06-01', 'Female', ${idNumber}, ${address}) RETURNING id`,
  );
  return { id: row!.id, idNumber };
}

export const WINDHOEK = '5 Robert Mugabe Avenue, Windhoek, Khomas';

/** Confirms access without consent (break-the-glass) through the real route; throws unless 201. */
export async function breakGlass(
  app: FastifyInstance,
  cookie: string,
  patientId: number,
  reason = 'Unconscious patient, no consent possible',
): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/patients/${patientId}/access`,
    headers: { cookie },
    payload: { consent: false, reason },
  });
  if (res.statusCode !== 201) throw new Error(`breakGlass answered ${res.statusCode}: ${res.body}`);
}

/** Confirms access with the patient's consent; throws unless 201. */
export async function withConsent(app: FastifyInstance, cookie: string, patientId: number): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: `/api/patients/${patientId}/access`,
    headers: { cookie },
    payload: { consent: true },
  });
  if (res.statusCode !== 201) throw new Error(`withConsent answered ${res.statusCode}: ${res.body}`);
}

/** Looks a patient up by NC number (one SEARCH audit row returning that patient); throws unless 200. */
export async function searchById(app: FastifyInstance, cookie: string, idNumber: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/patients/search',
    headers: { cookie },
    payload: { method: 'id-number', idNumber },
  });
  if (res.statusCode !== 200) throw new Error(`searchById answered ${res.statusCode}: ${res.body}`);
}
