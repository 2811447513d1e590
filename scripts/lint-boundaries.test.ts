// Decision 022: the import boundaries really fail the lint. Each case plants one import in a file of the real tree
// (linted as text under that path with the repository's own eslint.config.js, so imports resolve against the real
// files) and expects exactly its boundary's message; the allowed cases expect none. Removing or weakening a zone in
// eslint.boundaries.js, or dropping the boundaries from eslint.config.js, fails this test.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../eslint.boundaries.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const eslint = new ESLint({ cwd: root });

async function boundaryMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import-x/no-restricted-paths' || m.ruleId === '@typescript-eslint/no-restricted-imports' || m.fatal)
    .map((m) => m.message);
}

const planted: { name: string; file: string; code: string; message: string }[] = [
  {
    name: "a module imports another module's repository (relative path)",
    file: 'src/server/modules/patients/planted.service.ts',
    code: "import { findUserWithRole } from '../users/users.repository';\nexport const x = findUserWithRole;\n",
    message: MESSAGES.crossModule,
  },
  {
    name: "a module's routes import another module's routes",
    file: 'src/server/modules/records/planted.routes.ts',
    code: "import { usersRoutes } from '../users/users.routes';\nexport const x = usersRoutes;\n",
    message: MESSAGES.crossModule,
  },
  {
    name: 'a service imports the database client',
    file: 'src/server/modules/patients/planted.service.ts',
    code: "import { openDatabase } from '../../db/client';\nexport const x = openDatabase;\n",
    message: MESSAGES.database,
  },
  {
    name: 'a service imports the schema',
    file: 'src/server/modules/users/planted.service.ts',
    code: "import { users } from '../../db/schema';\nexport const x = users;\n",
    message: MESSAGES.database,
  },
  {
    name: 'a service imports the query builder',
    file: 'src/server/modules/users/planted.service.ts',
    code: "import { eq } from 'drizzle-orm';\nexport const x = eq;\n",
    message: MESSAGES.database,
  },
  {
    name: 'a client feature imports another feature',
    file: 'src/client/features/patients/planted.tsx',
    code: "import { PatientRecord } from '../record/components/patient-record';\nexport const x = PatientRecord;\n",
    message: MESSAGES.crossFeature,
  },
  {
    name: 'client code imports the server',
    file: 'src/client/lib/planted.ts',
    code: "import { loadConfig } from '../../server/config';\nexport const x = loadConfig;\n",
    message: MESSAGES.clientServer,
  },
  {
    name: 'a client test imports server code other than its test builders',
    file: 'src/client/features/patients/planted.test.tsx',
    code: "import { loadConfig } from '../../../server/config';\nexport const x = loadConfig;\n",
    message: MESSAGES.clientTests,
  },
  {
    name: 'contracts import the server',
    file: 'src/contracts/planted.ts',
    code: "import { AppError } from '../server/errors/app-error';\nexport const x = AppError;\n",
    message: MESSAGES.clientServer,
  },
  {
    name: 'contracts import client code',
    file: 'src/contracts/planted.ts',
    code: "import { errorText } from '../client/lib/error-text';\nexport const x = errorText;\n",
    message: MESSAGES.contractsClient,
  },
  {
    name: 'the server imports client code',
    file: 'src/server/planted.ts',
    code: "import { errorText } from '../client/lib/error-text';\nexport const x = errorText;\n",
    message: MESSAGES.serverClient,
  },
  {
    name: 'a UI primitive imports a feature',
    file: 'src/client/components/ui/planted.tsx',
    code: "import { useAddPatient } from '../../features/patients/api/add-patient';\nexport const x = useAddPatient;\n",
    message: MESSAGES.uiDomain,
  },
  {
    name: 'a UI primitive imports the app',
    file: 'src/client/components/ui/planted.tsx',
    code: "import { App } from '../../app/app';\nexport const x = App;\n",
    message: MESSAGES.uiDomain,
  },
];

const allowed: { name: string; file: string; code: string }[] = [
  {
    name: "a module calls another module's service",
    file: 'src/server/modules/patients/planted.service.ts',
    code: "import { getCurrentUser } from '../users/users.service';\nexport const x = getCurrentUser;\n",
  },
  {
    name: 'a service imports the database type only',
    file: 'src/server/modules/patients/planted.service.ts',
    code: "import type { Db } from '../../db/client';\nexport type X = Db;\n",
  },
  {
    name: 'a repository imports the database',
    file: 'src/server/modules/patients/planted.repository.ts',
    code: "import { eq } from 'drizzle-orm';\nimport { users } from '../../db/schema';\nexport const x = [eq, users];\n",
  },
  {
    name: 'a feature imports the shared lib and contracts',
    file: 'src/client/features/patients/planted.ts',
    code: "import { errorText } from '../../lib/error-text';\nimport { errorCodes } from '../../../contracts/errors';\nexport const x = [errorText, errorCodes];\n",
  },
  {
    name: 'a client component test builds the real app with the server test builders',
    file: 'src/client/features/patients/planted.test.tsx',
    code: "import { createTestApp } from '../../../server/test/test-app';\nexport const x = createTestApp;\n",
  },
  {
    name: 'the app composes features',
    file: 'src/client/app/planted.tsx',
    code: "import { PatientRecord } from '../features/record/components/patient-record';\nexport const x = PatientRecord;\n",
  },
];

describe('import boundaries (eslint.config.js)', () => {
  it.each(planted)('fails the lint when $name', async ({ file, code, message }) => {
    expect(await boundaryMessages(file, code)).toEqual([expect.stringContaining(message)]);
  });

  it.each(allowed)('passes when $name', async ({ file, code }) => {
    expect(await boundaryMessages(file, code)).toEqual([]);
  });
});
