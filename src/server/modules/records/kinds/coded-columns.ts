// The columns of a coded entry (contracts/kinds/coded.ts): null when the entry is free text.
import { varchar } from 'drizzle-orm/pg-core';

export const codedColumns = () => ({
  code: varchar('code', { length: 32 }),
  codeSystem: varchar('code_system', { length: 200 }),
  codeDisplay: varchar('code_display', { length: 300 }),
});
