// The columns of a coded entry (contracts/kinds/coded.ts): null when the entry is free text.
import { jsonb, varchar } from 'drizzle-orm/pg-core';
import type { Coding } from '../../../../contracts/kinds/coded';

export const codedColumns = () => ({
  code: varchar('code', { length: 32 }),
  codeSystem: varchar('code_system', { length: 200 }),
  codeDisplay: varchar('code_display', { length: 300 }),
  /** Every coding the entry was sent with (a FHIR create, decision 049), as sent; null when none. */
  codings: jsonb('codings').$type<Coding[]>(),
});
