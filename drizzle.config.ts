import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // The shared tables, and each record kind's table in its definition (src/server/modules/records/kinds).
  schema: ['./src/server/db/schema.ts', './src/server/modules/records/kinds/*.ts'],
  out: './src/server/db/migrations',
});
