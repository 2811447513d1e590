// POST DiagnosticReport (issue 26 item 2, decision 049): a laboratory report grouping results already on the record
// (Observation/lab-<id>, sent before it), kept on each of its results through the records module (one transaction:
// the grant check, each result's next version and its UPDATE audit row). Faithful as every create is: an element the
// report cannot hold is refused with 422 naming it (fhir/faithful.ts).
import { LAB_REPORT_MAX_RESULTS, LAB_RESULT_STATUSES, labReportInput, type LabReport } from '../../../contracts/kinds/lab-results';
import { AppError, validationFailed } from '../../errors/app-error';
import { codedConcept, dayOf, displayOf, fixedCode, notHeld, oneOf, onlyKeys, refuseUnread, single } from '../../fhir/faithful';
import { obj, str } from '../../fhir/input';
import type { FhirResource } from '../../fhir/resources';
import { DIAGNOSTIC_SERVICE, reportOf } from '../records/kinds/lab-reports';
import { setKeptFields } from '../records/records.service';
import { patientOf } from './fhir-create.service';
import type { FhirScope } from './fhir-read.service';

const TYPE = 'DiagnosticReport';
const RESULT = /^Observation\/lab-([1-9]\d{0,9})$/;
const ELEMENTS = ['status', 'category', 'code', 'subject', 'effectiveDateTime', 'performer', 'result', 'conclusion'];
const EXPRESSIONS: Record<string, string> = {
  name: 'DiagnosticReport.code',
  codings: 'DiagnosticReport.code.coding',
  status: 'DiagnosticReport.status',
  effectiveDate: 'DiagnosticReport.effectiveDateTime',
  performer: 'DiagnosticReport.performer',
  conclusion: 'DiagnosticReport.conclusion',
};

/** The laboratory results a report groups, in its order: Observation/lab-<id> references, each once. */
function resultIds(v: unknown): number[] {
  const list = v === undefined ? [] : Array.isArray(v) ? (v as unknown[]) : [v];
  if (list.length === 0)
    throw validationFailed([{ path: `${TYPE}.result`, message: 'A report groups laboratory results (Observation/lab-<id>)' }]);
  if (list.length > LAB_REPORT_MAX_RESULTS)
    throw validationFailed([{ path: `${TYPE}.result`, message: `A report groups at most ${LAB_REPORT_MAX_RESULTS} results` }]);
  const ids = list.map((x, i) => {
    const m = RESULT.exec(str(onlyKeys(x, ['reference'], `${TYPE}.result[${i}]`).reference) ?? '');
    if (!m || Number(m[1]) > 2_147_483_647)
      throw validationFailed([
        { path: `${TYPE}.result[${i}]`, message: 'A reference to a laboratory result (Observation/lab-<id>) is required' },
      ]);
    return Number(m[1]);
  });
  const repeated = ids.findIndex((id, i) => ids.indexOf(id) !== i);
  if (repeated >= 0) throw validationFailed([{ path: `${TYPE}.result[${repeated}]`, message: 'Each result is named once' }]);
  return ids;
}

/** The stored report, as a DiagnosticReport: 201 for the route. */
export async function createDiagnosticReport(scope: FhirScope, body: unknown): Promise<FhirResource> {
  const r = obj(body);
  if (r.resourceType !== TYPE) throw validationFailed([{ path: 'resourceType', message: `The body must be a ${TYPE}` }]);
  const patientId = patientOf(TYPE, 'subject', r);
  refuseUnread(TYPE, r, ELEMENTS);
  const status = oneOf(str(r.status), `${TYPE}.status`, LAB_RESULT_STATUSES);
  if (r.category !== undefined)
    oneOf(fixedCode(single(r.category, `${TYPE}.category`), `${TYPE}.category`, DIAGNOSTIC_SERVICE), `${TYPE}.category`, ['LAB']);
  // A report's test need not be in the catalogue of single tests (a panel): its codings are kept as sent.
  const coded = codedConcept(r.code, `${TYPE}.code`, []);
  const ids = resultIds(r.result);
  const parsed = labReportInput(() => scope.now).safeParse({
    name: coded.words,
    codings: coded.codings,
    status,
    effectiveDate: dayOf(r.effectiveDateTime, `${TYPE}.effectiveDateTime`),
    performer: displayOf(single(r.performer, `${TYPE}.performer`), `${TYPE}.performer`) ?? null,
    conclusion: r.conclusion ?? null,
  });
  if (!parsed.success)
    throw validationFailed(
      parsed.error.issues.map((i) => ({ path: EXPRESSIONS[String(i.path[0] ?? '')] ?? TYPE, message: i.message })),
      `Invalid ${TYPE}`,
    );
  const report: LabReport = { results: ids, ...parsed.data };
  try {
    const rows = await setKeptFields(scope, 'lab-results', patientId, ids, { report }, (items) =>
      items.forEach((item, i) => {
        if (item.report)
          throw notHeld(`${TYPE}.result[${i}]`, `This result already belongs to DiagnosticReport/report-${item.report.results[0]}`);
      }),
    );
    return reportOf(rows[0]!)[0]!;
  } catch (err) {
    if (err instanceof AppError && err.code === 'RECORD_ENTRY_NOT_FOUND')
      throw validationFailed([{ path: `${TYPE}.result`, message: 'Every result must be a current laboratory result of the patient' }]);
    throw err;
  }
}
