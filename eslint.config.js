// Lint: typescript-eslint plus the import boundaries of DESIGN.md §2 and STYLE.md habit 6.
import { readdirSync, existsSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const dirs = (p) => (existsSync(p) ? readdirSync(p, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name) : []);
const serverModules = dirs('src/server/modules');
const clientFeatures = dirs('src/client/features');

// Only repositories (and the db layer, tests and scripts) may import the database or its driver.
const databaseImports = {
  group: ['**/db/client', '**/db/schema', 'drizzle-orm', 'drizzle-orm/*', 'pg', '@electric-sql/pglite', '@electric-sql/pglite/*'],
  allowTypeImports: true,
  message: 'Only *.repository.ts files talk to the database (DESIGN.md §2).',
};

const boundaryRules = [
  // Modules use each other's services, never their repositories or routes.
  ...serverModules.map((m) => ({
    files: [`src/server/modules/${m}/**/*.ts`],
    ignores: ['**/*.test.ts', '**/*.repository.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            databaseImports,
            {
              regex: `modules/(?!${m}/)[^/]+/.*\\.(repository|routes)$`,
              message: "Call another module's service, not its repository or routes.",
            },
          ],
        },
      ],
    },
  })),
  // Client features do not import each other; app/ composes them.
  ...clientFeatures.map((f) => ({
    files: [`src/client/features/${f}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: `features/(?!${f}/)`, message: 'Features do not import each other; compose them in src/client/app.' }] },
      ],
    },
  })),
  {
    files: ['src/client/**/*.{ts,tsx}', 'src/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: 'server/', message: 'Client and contracts code never imports the server.' }] },
      ],
    },
  },
  {
    files: ['src/client/components/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(features|app)/', message: 'UI primitives hold no domain logic.' }] },
      ],
    },
  },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'e2e/artifacts/**', 'bench/results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['src/client/**/*.tsx', 'src/client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['scripts/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  ...boundaryRules,
);
