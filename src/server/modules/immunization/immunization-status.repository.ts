// What a patient's immunization status is computed from (decision 044): their vaccine rows as every reader sees
// them (entered-in-error rows left out, through the presenter) and whether an active pregnancy is recorded.
import type { Actor } from '../../context/actor';
import type { PatientScope } from '../access/patient-scope';
import { selectListsOf } from '../records/records.repository';
import type { VaccineDose } from './schedule-engine';

/** The scope patient's vaccine rows as the schedule reads them and whether an active pregnancy is recorded (ICD-10 Z33-Z35, O). */
export async function selectStatusInputs<A extends Actor>(scope: PatientScope<A>): Promise<{ vaccines: VaccineDose[]; pregnant: boolean }> {
  const { vaccines, diagnoses } = await selectListsOf(scope, ['vaccines', 'diagnoses'] as const);
  const pregnant = diagnoses.some((d) => d.status === 'Active' && d.code !== null && /^(Z3[345]|O)/.test(d.code));
  return {
    vaccines: vaccines.map((v) => ({ id: v.id, vaccine: v.vaccine, code: v.code, codeSystem: v.codeSystem, date: v.date, dose: v.dose })),
    pregnant,
  };
}
