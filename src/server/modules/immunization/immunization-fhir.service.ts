// A patient's immunization status as a FHIR R4 ImmunizationRecommendation (issue 25 item 2, decision 044): one
// resource per patient, a recommendation per dose not given (due, overdue or upcoming; missed ones are no longer
// recommended), its vaccine as the series' CVX codes, the state as the HL7 forecast status, the reason codes as our
// own code system, and the due and latest dates as LOINC date criteria. Read through the same audited status read.
import { CVX_SYSTEM } from '../../../contracts/code-systems';
import type { ImmunizationStatus } from '../../../contracts/immunization';
import type { StaffActor } from '../../context/actor';
import type { RequestScope } from '../../context/data-context';
import { coding, patientReference, type FhirResource } from '../../fhir/resources';

/** A Coding (resources.ts' `coding` makes a CodeableConcept of one). */
const one = (system: string, code: string, display?: string) => ({ system, code, ...(display ? { display } : {}) });
import { readImmunizationStatus } from './immunization-status.service';
import { currentSchedule } from './schedule.service';

const FORECAST_STATUS = 'http://terminology.hl7.org/CodeSystem/immunization-recommendation-status';
export const REASON_SYSTEM = 'https://nhr.health.gov.na/fhir/CodeSystem/immunization-reason';
const DUE = coding('http://loinc.org', '30980-7', 'Date vaccine due');
const LATEST = coding('http://loinc.org', '59777-3', 'Latest date to give immunization');

export function recommendationResource(
  patientId: number,
  status: ImmunizationStatus,
  cvxOf: (series: string) => string[],
  now: Date,
): FhirResource {
  const open = status.doses.filter((d) => d.state === 'due' || d.state === 'overdue' || d.state === 'upcoming');
  return {
    resourceType: 'ImmunizationRecommendation',
    id: String(patientId),
    patient: patientReference(patientId),
    date: now.toISOString(),
    authority: { display: `${status.authority} (schedule ${status.scheduleVersion})` },
    recommendation: open.map((d) => {
      const latest = d.reasons.find((r) => r.code === 'CATCH_UP_UNTIL')?.params.date;
      return {
        vaccineCode: [{ coding: cvxOf(d.series).map((code) => one(CVX_SYSTEM, code)), text: d.name }],
        forecastStatus: coding(FORECAST_STATUS, d.state === 'overdue' ? 'overdue' : 'due'),
        forecastReason: d.reasons.map((r) => coding(REASON_SYSTEM, r.code)),
        dateCriterion: [{ code: DUE, value: d.date }, ...(typeof latest === 'string' ? [{ code: LATEST, value: latest }] : [])],
        description: d.name,
        series: d.series,
      };
    }),
  };
}

/** GET /fhir/R4/ImmunizationRecommendation?patient=: the patient's one resource (grant-checked and audited). */
export async function readImmunizationRecommendation(scope: RequestScope<StaffActor>, patientId: number): Promise<FhirResource> {
  const schedule = await currentSchedule(scope.db);
  const status = await readImmunizationStatus(scope, patientId);
  const cvxOf = (series: string) => schedule.series.find((s) => s.id === series)?.cvx ?? [];
  return recommendationResource(patientId, status, cvxOf, scope.now);
}
