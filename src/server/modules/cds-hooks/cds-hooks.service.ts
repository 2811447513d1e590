// CDS Hooks (issue 25 item 6; decision 045): the discovery answer and one service call. A call's body is read by the
// service's own schema (cds-request.ts): the wrong hook, a missing context or a malformed field is a 400 naming it,
// an unknown service a 404, a patient we do not have a 404, and no live access grant a 403; nothing is changed.
import { z } from 'zod';
import type { StatementLanguage } from '../../../contracts/medicine-checks';
import { AppError, validationFailed } from '../../errors/app-error';
import { parseOr400 } from '../audit/parse';
import type { RecordCaller } from '../records/records.service';
import type { CdsCard } from './cds-cards';
import { draftMedicines, orderSelectRequest, patientIdOf, patientViewRequest, type PatientViewRequest } from './cds-request';
import { CDS_SERVICES, orderSelectCards, PATIENT_VIEW_PROVIDERS, type CdsServiceDefinition, type PatientViewCall } from './cds-services';

/** GET /cds-services. */
export const discovery = (): { services: CdsServiceDefinition[] } => ({ services: [...CDS_SERVICES] });

const notFound = (id: string): AppError => new AppError('NOT_FOUND', `No CDS service ${id}`, { details: { service: id } });

/** The hook a body names must be the service's (checked first, so the error says which hook this service takes). */
function assertHook(body: unknown, service: CdsServiceDefinition): void {
  const hook = z.object({ hook: z.string() }).safeParse(body);
  if (hook.success && hook.data.hook !== service.hook)
    throw validationFailed([{ path: 'hook', message: `This service answers ${service.hook}` }], 'Wrong hook for this service');
}

/** POST /cds-services/{id}: the service's cards. */
export async function callCdsService(
  c: RecordCaller,
  id: string,
  body: unknown,
  language: StatementLanguage,
): Promise<{ cards: CdsCard[] }> {
  const service = CDS_SERVICES.find((s) => s.id === id);
  if (!service) throw notFound(id);
  assertHook(body, service);
  const callOf = (request: PatientViewRequest): PatientViewCall => ({
    caller: c,
    patientId: patientIdOf(request.context.patientId),
    hookInstance: request.hookInstance,
    userId: request.context.userId,
    language,
  });
  if (service.hook === 'patient-view') {
    const call = callOf(parseOr400(patientViewRequest, body, 'Invalid patient-view request'));
    const cards: CdsCard[] = [];
    for (const provider of PATIENT_VIEW_PROVIDERS) cards.push(...(await provider(call)));
    return { cards };
  }
  const request = parseOr400(orderSelectRequest, body, 'Invalid order-select request');
  return { cards: await orderSelectCards(callOf(request), draftMedicines(request.context)) };
}
