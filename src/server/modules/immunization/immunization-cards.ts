// A patient's overdue and due doses as CDS Hooks patient-view cards (issue 25 items 2 and 6, decisions 044 and 045):
// read through the same grant-checked, audited status read as the record's schedule card; overdue doses are warnings,
// due ones information; the summary in the caller's language from catalogues/immunization-card-texts.tsv (the dose
// names are the schedule's own), the detail the reasons' codes, and the source the schedule version and its authority.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { STATEMENT_LANGUAGES, type StatementLanguage } from '../../../contracts/medicine-checks';
import type { ImmunizationStatus } from '../../../contracts/immunization';
import type { StaffActor } from '../../context/actor';
import type { RequestScope } from '../../context/data-context';
import { CATALOGUE_DIR, parseTsv } from '../codes/catalogue-files';
import { readImmunizationStatus } from './immunization-status.service';

export const CARD_TEXTS_FILE = `${CATALOGUE_DIR}immunization-card-texts.tsv`;
const KEYS = { overdue: 'IMMUNIZATION_OVERDUE', due: 'IMMUNIZATION_DUE' } as const;
const PLACEHOLDERS = ['date', 'dose'];

type Texts = Record<(typeof KEYS)[keyof typeof KEYS], Record<StatementLanguage, string>>;

/** The card texts, each key in every language with exactly {dose} and {date}; throws naming what is wrong. */
export function cardTextsOf(text: string): Texts {
  const rows = parseTsv(text);
  const out: Partial<Texts> = {};
  for (const key of Object.values(KEYS)) {
    const row = rows.find((r) => r.key === key);
    if (!row) throw new Error(`immunization-card-texts.tsv: missing ${key}`);
    for (const l of STATEMENT_LANGUAGES) {
      const used = [...(row[l] ?? '').matchAll(/\{([a-z]+)\}/g)].map((m) => m[1]).sort();
      if (used.join() !== PLACEHOLDERS.join()) throw new Error(`immunization-card-texts.tsv: ${key} ${l} must use {dose} and {date}`);
    }
    out[key] = { en: row.en!, af: row.af!, ng: row.ng! };
  }
  return out as Texts;
}

let texts: Texts | undefined;
const cardTexts = (): Texts => (texts ??= cardTextsOf(readFileSync(CARD_TEXTS_FILE, 'utf8')));

export interface ImmunizationCard {
  uuid: string;
  summary: string;
  detail: string;
  indicator: 'info' | 'warning';
  source: { label: string };
}

/** The overdue doses first, then the due ones, each as one card. */
export function immunizationCardsOf(status: ImmunizationStatus, language: StatementLanguage): ImmunizationCard[] {
  const open = [...status.doses.filter((d) => d.state === 'overdue'), ...status.doses.filter((d) => d.state === 'due')];
  return open.map((d) => {
    const text = cardTexts()[d.state === 'overdue' ? KEYS.overdue : KEYS.due][language];
    return {
      uuid: randomUUID(),
      summary: text.replace('{dose}', d.name).replace('{date}', d.date).slice(0, 139),
      detail: d.reasons.map((r) => r.code).join(', '),
      indicator: d.state === 'overdue' ? 'warning' : 'info',
      source: { label: `${status.authority} Schedule ${status.scheduleVersion}` },
    };
  });
}

/** The cards of one patient, read as the record's schedule card reads them (grant check, VIEW PATIENT audit row). */
export async function immunizationCards(c: RequestScope<StaffActor>, patientId: number, language: StatementLanguage) {
  return immunizationCardsOf(await readImmunizationStatus(c, patientId), language);
}
