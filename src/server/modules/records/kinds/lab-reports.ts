// Laboratory reports as FHIR DiagnosticReport (issue 26 item 2, decision 049): a report groups laboratory results
// already on the record (its `result` references); it is kept on each of its results (lab_results.report), and the
// first result's row stands for it: DiagnosticReport/report-<first result id>, read and searched with the laboratory
// results (their grant check and audit). Created by POST DiagnosticReport (modules/fhir/fhir-diagnostic-report.service.ts).
import { LOINC_SYSTEM } from '../../../../contracts/code-systems';
import type { LabResultRow } from '../../../../contracts/kinds/lab-results';
import { errorStatusOf } from '../../../fhir/faithful';
import { coding, named, patientReference, type FhirResource } from '../../../fhir/resources';
import { unsupported } from '../../../fhir/unsupported';
import type { KindFhir } from './server-kind';

/** The diagnostic service section of a laboratory report (HL7 v2 table 0074). */
export const DIAGNOSTIC_SERVICE = 'http://terminology.hl7.org/CodeSystem/v2-0074';
const ID = /^report-([1-9]\d{0,9})$/;
export const DIAGNOSTIC_REPORT_STATUSES = [
  'registered',
  'partial',
  'preliminary',
  'final',
  'amended',
  'corrected',
  'appended',
  'cancelled',
  'entered-in-error',
  'unknown',
] as const;

/** The report a result's row stands for: only the first result of a report does. */
export function reportOf(r: LabResultRow): FhirResource[] {
  const report = r.report;
  if (!report || report.results[0] !== r.id) return [];
  return [
    {
      resourceType: 'DiagnosticReport',
      id: `report-${r.id}`,
      status: errorStatusOf(r) ? 'entered-in-error' : report.status,
      category: [coding(DIAGNOSTIC_SERVICE, 'LAB')],
      code: report.codings ? { coding: report.codings, text: report.name } : { text: report.name },
      subject: patientReference(r.patientId),
      effectiveDateTime: report.effectiveDate,
      ...(report.performer ? { performer: [named(report.performer)] } : {}),
      result: report.results.map((id) => ({ reference: `Observation/lab-${id}` })),
      ...(report.conclusion ? { conclusion: report.conclusion } : {}),
    },
  ];
}

const tokenOf = (value: string): { system: string | null; code: string } => {
  const bar = value.indexOf('|');
  return bar < 0 ? { system: null, code: value } : { system: value.slice(0, bar), code: value.slice(bar + 1) };
};

/** Which reports a search keeps: by code (LOINC, bare or system|code), category (LAB) and status (any of several). */
function select(values: Map<string, string>): ((r: FhirResource) => boolean) | null {
  const category = values.get('category');
  if (category !== undefined) {
    const { system, code } = tokenOf(category);
    if (code !== 'LAB' || (system !== null && system !== DIAGNOSTIC_SERVICE && system !== ''))
      throw unsupported(`Unsupported DiagnosticReport category: ${category} (LAB only)`, 'category');
  }
  const code = values.get('code');
  const wanted = code === undefined ? null : tokenOf(code);
  if (wanted && ((wanted.system !== null && wanted.system !== LOINC_SYSTEM) || !wanted.code))
    throw unsupported(`Unsupported DiagnosticReport code: ${code} (LOINC only)`, 'code');
  const status = values.get('status');
  const statuses = status === undefined ? null : status.split(',');
  if (statuses?.some((s) => !(DIAGNOSTIC_REPORT_STATUSES as readonly string[]).includes(s)))
    throw unsupported(`Unsupported DiagnosticReport status: ${status}`, 'status');
  return (r) => {
    const codings = ((r.code as { coding?: { system?: string; code?: string }[] }).coding ?? []) as { system?: string; code?: string }[];
    return (
      (wanted === null || codings.some((c) => c.system === LOINC_SYSTEM && c.code === wanted.code)) &&
      (statuses === null || statuses.includes(r.status as string))
    );
  };
}

export const labReportFhir: KindFhir<LabResultRow> = {
  type: 'DiagnosticReport',
  rowId: (id) => {
    const m = ID.exec(id);
    return m && Number(m[1]) <= 2_147_483_647 ? Number(m[1]) : null;
  },
  resources: reportOf,
  search: {
    params: [
      { name: 'code', type: 'token', documentation: 'The LOINC code of the report, bare or as http://loinc.org|<code>' },
      { name: 'category', type: 'token', documentation: `LAB (${DIAGNOSTIC_SERVICE})` },
      { name: 'status', type: 'token', documentation: 'The report status (several separated by commas: any of them)' },
    ],
    select,
  },
  create: null,
  ips: null,
};
