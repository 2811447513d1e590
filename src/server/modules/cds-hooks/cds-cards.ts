// Medicine-check findings as CDS Hooks cards (CDS Hooks 2.0 "Card Attributes"; decision 045): the summary in the
// caller's language (Accept-Language: en, af or ng) and under 140 characters, the clinical statement as the detail,
// the indicator from the tier (contraindicated critical, serious warning, minor info), and a source whose label names
// the knowledge version the finding came from.
import { randomUUID } from 'node:crypto';
import { preferredLanguage } from '../../http/accept-language';
import { STATEMENT_LANGUAGES, type MedicineCheckTier, type StatementLanguage } from '../../../contracts/medicine-checks';
import { findingCode, knowledgeText, type MedicineFinding } from '../medicine-checks/medicine-checks.service';
import type { MedicineKnowledge } from '../medicine-checks/knowledge-files';

export interface CdsCard {
  uuid: string;
  summary: string;
  detail?: string;
  indicator: 'info' | 'warning' | 'critical';
  source: { label: string; url?: string; topic?: { system: string; code: string; display?: string } };
}

/** CDS Hooks: "One-sentence, <140-character summary". */
export const SUMMARY_MAX = 139;

/** The code system of the topics of our cards: the id of the knowledge rule a card came from. */
export const RULE_TOPIC_SYSTEM = 'https://nhr.health.gov.na/fhir/CodeSystem/medicine-check-rule';

const INDICATOR: Record<MedicineCheckTier, CdsCard['indicator']> = { contraindicated: 'critical', serious: 'warning', minor: 'info' };

/** The first of en, af, ng an Accept-Language header names (by its order and q values); English otherwise. */
export function languageOf(header: string | string[] | undefined): StatementLanguage {
  return preferredLanguage(header, STATEMENT_LANGUAGES);
}

const shortened = (text: string): string => (text.length <= SUMMARY_MAX ? text : `${text.slice(0, SUMMARY_MAX - 1).trimEnd()}…`);

/** The label every card of the medicine checks carries: who says it, and from which knowledge version. */
export const sourceLabel = (version: string): string => `National Health Records medicine checks, knowledge ${version}`;

/** One finding as a card. */
export function findingCard(k: MedicineKnowledge, f: MedicineFinding, language: StatementLanguage): CdsCard {
  const rule = k.interactions.find((r) => r.id === f.rule) ?? k.allergyClasses.find((r) => r.id === f.rule);
  const url = k.sources.get(rule?.source ?? f.rule)?.url;
  const summary = knowledgeText(k, findingCode(f), { substance: f.substance, other: f.other })[language];
  return {
    uuid: randomUUID(),
    summary: shortened(summary),
    detail: `${f.statements[language]}\n\n${f.source}`,
    indicator: INDICATOR[f.tier],
    source: {
      label: sourceLabel(f.version),
      ...(url ? { url } : {}),
      topic: { system: RULE_TOPIC_SYSTEM, code: f.rule, display: f.source },
    },
  };
}

/** The card that stands for every check while the knowledge is unavailable: never a silent empty answer. */
export function unavailableCard(k: MedicineKnowledge | null, problem: string, language: StatementLanguage): CdsCard {
  const fallback = 'Medicine checks are unavailable: this entry was not checked for allergies or interactions';
  const summary = k ? knowledgeText(k, 'MEDICINE_CHECKS_UNAVAILABLE', {})[language] : fallback;
  return {
    uuid: randomUUID(),
    summary: shortened(summary),
    detail: problem,
    indicator: 'critical',
    source: { label: 'National Health Records medicine checks, knowledge unavailable' },
  };
}

/** A selected draft whose medicine has no ATC code: it was not checked, and the card says so (a warning). */
export function uncodedCard(k: MedicineKnowledge, label: string, language: StatementLanguage): CdsCard {
  return {
    uuid: randomUUID(),
    summary: shortened(knowledgeText(k, 'NOT_CHECKED_UNCODED', { substance: label })[language]),
    indicator: 'warning',
    source: { label: sourceLabel(k.version) },
  };
}
