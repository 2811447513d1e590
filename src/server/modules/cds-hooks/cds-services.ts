// The CDS Hooks services this server offers (decision 045), as GET /cds-services lists them, and what each answers.
// patient-view: the record's open medicine-check findings (active medicines against recorded allergies, and
// interactions among active medicines). order-select: the medicine checks of the selected draft MedicationRequests.
// patient-view's cards come from PATIENT_VIEW_PROVIDERS: the medicine checks', then the immunization status's overdue
// and due doses (issue 25 items 1-2).
import type { StatementLanguage } from '../../../contracts/medicine-checks';
import { medicineKnowledgeState } from '../medicine-checks/medicine-knowledge';
import { noteAlertsShown } from '../medicine-checks/medicine-report.service';
import { cdsMedicineFindings } from '../records/medicine-findings.service';
import type { RecordCaller } from '../records/records.service';
import type { FindingsOrUnavailable } from '../records/kinds/medicine-checks';
import { findingCode, type MedicineFinding } from '../medicine-checks/medicine-checks.service';
import { clientMayAccess } from '../api-clients/fhir-access';
import { immunizationCards } from '../immunization/immunization-cards';
import { findingCard, uncodedCard, unavailableCard, type CdsCard } from './cds-cards';
import type { DraftMedicine } from './cds-request';

/** What a provider of patient-view cards is given: who asks, the patient, the call, and the cards' language. */
export interface PatientViewCall {
  caller: RecordCaller;
  patientId: number;
  hookInstance: string;
  /** The CDS client's user (context.userId), e.g. Practitioner/abc: recorded with the read. */
  userId: string;
  language: StatementLanguage;
}

/** A source of patient-view cards. Each reads the record through its own grant-checked, audited service call. */
export type PatientViewProvider = (call: PatientViewCall) => Promise<CdsCard[]>;

/** Cards of medicine-check findings, each recorded as an alert shown (the monthly report). */
async function cardsOf(
  call: { caller: RecordCaller; language: StatementLanguage },
  found: FindingsOrUnavailable,
  extra: CdsCard[] = [],
): Promise<CdsCard[]> {
  const state = medicineKnowledgeState();
  const knowledge = state.available ? state.knowledge : null;
  if (!found.available) {
    await noteAlertsShown(call.caller.db, shownBy(call.caller), [{ code: 'MEDICINE_CHECKS_UNAVAILABLE', tier: 'serious' }]);
    return [unavailableCard(knowledge, found.problem, call.language), ...extra];
  }
  const findings: MedicineFinding[] = found.medicines.flatMap((m) => m.findings);
  await noteAlertsShown(
    call.caller.db,
    shownBy(call.caller),
    findings.map((f) => ({ code: findingCode(f), tier: f.tier, params: { rule: f.rule, version: f.version } })),
  );
  return [...(knowledge ? findings.map((f) => findingCard(knowledge, f, call.language)) : []), ...extra];
}

const shownBy = (c: RecordCaller) => ({ userId: c.actor.userId, at: c.now, channel: 'cds-hooks' as const });

/** patient-view's medicine checks: open allergy conflicts and interactions among the active medicines. */
export const medicineCheckCards: PatientViewProvider = async (call) =>
  cardsOf(
    call,
    await cdsMedicineFindings(call.caller, call.patientId, {
      hook: 'patient-view',
      hookInstance: call.hookInstance,
      userId: call.userId,
      drafts: null,
    }),
  );

/**
 * patient-view's immunizations: the overdue and due doses of the current schedule (decision 044), for a client whose
 * scopes read ImmunizationRecommendation (the others get the medicine checks' cards only).
 */
const immunizationDoseCards: PatientViewProvider = async (call) =>
  clientMayAccess(call.caller.actor, 'ImmunizationRecommendation', 'read')
    ? immunizationCards(call.caller, call.patientId, call.language)
    : [];

/** The providers of patient-view's cards, in the order their cards are listed. */
export const PATIENT_VIEW_PROVIDERS: readonly PatientViewProvider[] = [medicineCheckCards, immunizationDoseCards];

/** order-select: the selected drafts checked against the record, the other drafts and each other. */
export async function orderSelectCards(
  call: PatientViewCall,
  drafts: { selected: DraftMedicine[]; others: DraftMedicine[] },
): Promise<CdsCard[]> {
  const coded = (list: DraftMedicine[]) => list.flatMap((d) => (d.atc ? [d.atc] : []));
  const found = await cdsMedicineFindings(call.caller, call.patientId, {
    hook: 'order-select',
    hookInstance: call.hookInstance,
    userId: call.userId,
    drafts: { selected: coded(drafts.selected), others: coded(drafts.others) },
  });
  const state = medicineKnowledgeState();
  const uncoded = state.available
    ? drafts.selected.filter((d) => d.atc === null).map((d) => uncodedCard(state.knowledge, d.label, call.language))
    : [];
  return cardsOf(call, found, uncoded);
}

/** One service of the discovery answer. */
export interface CdsServiceDefinition {
  hook: 'patient-view' | 'order-select';
  id: string;
  title: string;
  description: string;
  usageRequirements: string;
}

const USAGE =
  "Call with a system client's bearer token (Authorization: Bearer nhrc_...) whose scopes read AllergyIntolerance and " +
  'MedicationStatement, holding a live access grant for the patient (POST /fhir/R4/Patient/{id}/$access). ' +
  'context.patientId is the Patient id of this server. Prefetch is not needed: the record is read here. ' +
  'Send Accept-Language: en, af or ng for the language of the cards.';

export const CDS_SERVICES: readonly CdsServiceDefinition[] = [
  {
    hook: 'patient-view',
    id: 'nhr-patient-view',
    title: 'Medicine safety on opening a record',
    description:
      'Active medicines that conflict with recorded allergies (by substance and class) and interactions among the active ' +
      'medicines, each with its tier (critical: contraindicated, warning: serious, info: minor), its clinical statement ' +
      'and the knowledge version it came from. A card says so when the medicine checks are unavailable.',
    usageRequirements: USAGE,
  },
  {
    hook: 'order-select',
    id: 'nhr-medicine-checks',
    title: 'Medicine checks of draft medication orders',
    description:
      'The selected draft MedicationRequests (ATC-coded medicationCodeableConcept) checked against the recorded allergies, ' +
      'the active medicines and the other draft orders. A draft without an ATC code gets a card saying it was not checked.',
    usageRequirements: USAGE,
  },
];
