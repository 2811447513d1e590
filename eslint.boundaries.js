// The import boundaries of DESIGN.md §2 and STYLE.md habit 6, enforced on resolved paths (decision 022):
// eslint-plugin-import-x's no-restricted-paths resolves every import (relative or not) to a file and checks it
// against the zones below, so `../users/users.repository` is caught like any other spelling. All zones live in
// ONE rule entry, so no later config block can overwrite a feature's rule. scripts/lint-boundaries.test.ts plants
// a violation of every zone and fails if one is not reported.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const dirs = (p) =>
  existsSync(p)
    ? readdirSync(p, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => d.name)
    : [];

export const MESSAGES = {
  crossModule: "Call another module's service, not its repository or routes (DESIGN.md §2).",
  crossFeature: 'Features do not import each other; compose them in src/client/app.',
  clientServer: 'Client and contracts code never imports the server.',
  clientTests: 'Client tests reach the server only through its test builders (src/server/test).',
  serverClient: 'The server never imports client code.',
  contractsClient: 'Contracts are shared by client and server and import neither.',
  uiDomain: 'UI primitives hold no domain logic: no features, no app.',
  database: 'Only *.repository.ts files talk to the database (DESIGN.md §2).',
};

/** The zones of no-restricted-paths for the tree at `root`. */
export function boundaryZones(root) {
  const serverModules = dirs(path.join(root, 'src/server/modules'));
  const clientFeatures = dirs(path.join(root, 'src/client/features'));
  return [
    // Modules use each other's services, never their repositories or routes.
    ...serverModules.map((m) => ({
      target: `src/server/modules/${m}/**/!(*.repository|*.test).ts`,
      from: `src/server/modules/!(${m})/**/*.{repository,routes}.ts`,
      message: MESSAGES.crossModule,
    })),
    // Client features do not import each other; app/ composes them.
    ...clientFeatures.map((f) => ({
      target: `src/client/features/${f}/**`,
      from: `src/client/features/!(${f})/**`,
      message: MESSAGES.crossFeature,
    })),
    {
      target: ['src/client/!(test)/**/!(*.test).{ts,tsx}', 'src/client/*.{ts,tsx}', 'src/contracts/**'],
      from: 'src/server/**',
      message: MESSAGES.clientServer,
    },
    // Component tests render against the real server: they may use its test builders (src/server/test), nothing else.
    {
      target: ['src/client/**/*.test.{ts,tsx}', 'src/client/test/**'],
      from: 'src/server',
      except: ['./test'],
      message: MESSAGES.clientTests,
    },
    { target: 'src/server/**', from: 'src/client/**', message: MESSAGES.serverClient },
    { target: 'src/contracts/**', from: 'src/client/**', message: MESSAGES.contractsClient },
    { target: 'src/client/components/ui/**', from: ['src/client/features/**', 'src/client/app/**'], message: MESSAGES.uiDomain },
  ];
}

/** The flat-config blocks of the boundaries for the tree at `root` (the repository's root in eslint.config.js). */
export function boundaryConfig(root) {
  return [
    {
      files: ['src/**/*.{ts,tsx}'],
      plugins: { 'import-x': importX },
      settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.json'] })] },
      rules: { 'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones(root) }] },
    },
    // Only repositories (and the db layer, tests and scripts) import the database or its driver; types are free. A
    // record kind's server definition (modules/records/kinds) declares its table and the conditions of its checks
    // (decision 040); the statements run in repositories.
    {
      files: ['src/server/modules/**/*.ts'],
      ignores: ['**/*.repository.ts', '**/*.test.ts', 'src/server/modules/records/kinds/*.ts'],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          {
            patterns: [
              {
                regex: '^(drizzle-orm|pg|@electric-sql/pglite)(/.*)?$|(^|/)db/(client|schema)$',
                allowTypeImports: true,
                message: MESSAGES.database,
              },
            ],
          },
        ],
      },
    },
  ];
}
