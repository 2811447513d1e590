// A CDS Hooks service call as this server reads it (CDS Hooks 2.0 "Calling a CDS Service"; the hooks patient-view
// and order-select 1.0): hook, hookInstance, context (userId, patientId, and for order-select selections and
// draftOrders), optional fhirServer, fhirAuthorization and prefetch. The record is this server's own, so prefetch and
// fhirAuthorization are accepted and not used. Anything malformed is a 400 naming the field; nothing is changed.
import { z } from 'zod';
import { ATC_SYSTEM } from '../../../contracts/code-systems';
import { safeString } from '../../../contracts/fields';
import { AppError } from '../../errors/app-error';
import type { CheckedEntry } from '../medicine-checks/medicine-checks.service';

/** At most this many orders in draftOrders and in selections. */
export const DRAFT_ORDERS_MAX = 100;

const reference = safeString().min(1).max(200);

const fhirAuthorization = z.object({
  access_token: safeString().min(1).max(4096),
  token_type: z.literal('Bearer'),
  expires_in: z.number().int(),
  scope: safeString().max(2000),
  subject: safeString().max(200),
  patient: safeString().max(200).optional(),
});

const baseRequest = z.object({
  hook: safeString().min(1).max(64),
  hookInstance: z.uuid(),
  fhirServer: z.url().max(2000).optional(),
  fhirAuthorization: fhirAuthorization.optional(),
  prefetch: z.record(z.string(), z.unknown()).optional(),
});

const patientContext = z.object({
  userId: reference,
  patientId: safeString().min(1).max(64),
  encounterId: safeString().max(64).optional(),
});

const draftOrders = z.object({
  resourceType: z.literal('Bundle'),
  entry: z
    .array(z.object({ resource: z.record(z.string(), z.unknown()) }))
    .max(DRAFT_ORDERS_MAX)
    .default([]),
});

export const patientViewRequest = baseRequest.extend({ context: patientContext });
export const orderSelectRequest = baseRequest.extend({
  context: patientContext.extend({
    selections: z.array(reference).min(1).max(DRAFT_ORDERS_MAX),
    draftOrders,
  }),
});
export type PatientViewRequest = z.infer<typeof patientViewRequest>;
export type OrderSelectRequest = z.infer<typeof orderSelectRequest>;

/** The patient a context names: our Patient ids are numbers, so any other id is a patient we do not have (404). */
export function patientIdOf(id: string): number {
  const n = /^[1-9]\d{0,14}$/.test(id) ? Number(id) : NaN;
  if (!Number.isSafeInteger(n)) throw new AppError('PATIENT_NOT_FOUND', 'Patient not found');
  return n;
}

/** One draft MedicationRequest: its reference (MedicationRequest/<id>) and its medicine, ATC-coded or not. */
export interface DraftMedicine {
  reference: string;
  label: string;
  /** Null when the draft names no ATC code (medicationReference, another system, text only): it cannot be checked. */
  atc: CheckedEntry | null;
}

interface CodeableConcept {
  text?: unknown;
  coding?: unknown;
}

function medicineOf(resource: Record<string, unknown>): { label: string; atc: string | null } {
  const concept = (resource.medicationCodeableConcept ?? null) as CodeableConcept | null;
  const codings = Array.isArray(concept?.coding) ? (concept.coding as Record<string, unknown>[]) : [];
  const atc = codings.find((c) => c?.system === ATC_SYSTEM && typeof c.code === 'string' && /^[A-Z]\d\d[A-Z0-9]{0,4}$/.test(c.code));
  const display = codings.find((c) => typeof c?.display === 'string')?.display;
  const text = typeof concept?.text === 'string' ? concept.text : typeof display === 'string' ? display : null;
  const label = (text ?? (typeof atc?.code === 'string' ? atc.code : 'a medicine without a name')).slice(0, 200);
  return { label, atc: typeof atc?.code === 'string' ? atc.code : null };
}

/**
 * The draft MedicationRequests of an order-select call: those `selections` names (checked) and the others (what the
 * selected ones are also compared with). Other resource types (ServiceRequest, NutritionOrder) are not medicines.
 */
export function draftMedicines(context: OrderSelectRequest['context']): { selected: DraftMedicine[]; others: DraftMedicine[] } {
  const selected: DraftMedicine[] = [];
  const others: DraftMedicine[] = [];
  for (const { resource } of context.draftOrders.entry) {
    if (resource.resourceType !== 'MedicationRequest' || typeof resource.id !== 'string') continue;
    const reference = `MedicationRequest/${resource.id}`;
    const { label, atc } = medicineOf(resource);
    const draft = { reference, label, atc: atc ? { code: atc, label } : null };
    (context.selections.includes(reference) ? selected : others).push(draft);
  }
  return { selected, others };
}
