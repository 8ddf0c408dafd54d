// Lint: typescript-eslint's recommended rules over every workspace package (flat config).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeGlobals = {
  require: 'readonly',
  module: 'writable',
  exports: 'writable',
  __dirname: 'readonly',
  __filename: 'readonly',
  process: 'readonly',
  console: 'readonly',
  Buffer: 'readonly',
  setTimeout: 'readonly',
  clearTimeout: 'readonly',
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/src/generated/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      // input validation deliberately matches control characters (NUL and friends) in names and URLs
      'no-control-regex': 'off',
    },
  },
  {
    // functions take at most three positional parameters; more go in an input object (docs/architecture.md)
    // (packages/firewalls' simulators are being split separately and keep theirs for now)
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.tsx', 'services/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'packages/firewalls/src/**/simulator*.ts'],
    rules: { 'max-params': 'off', '@typescript-eslint/max-params': ['error', { max: 3 }] },
  },
  {
    // only the SDK imports the admin API; the code the worker shares with it lives in @risk/firewalls
    // (docs/architecture.md "Packages and who imports whom"; `pnpm lint:deps`, .dependency-cruiser.cjs, checks
    // the rest of the graph)
    files: ['packages/**/*.ts', 'services/**/*.ts'],
    // the console's browser tests start the whole stack in-process (packages/console/test/stack.ts)
    ignores: ['services/admin-api/**', 'packages/sdk/**', 'packages/console/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@risk/admin-api', '@risk/admin-api/*'],
              message: 'Only the SDK imports @risk/admin-api; shared firewall writes are in @risk/firewalls.',
            },
          ],
        },
      ],
    },
  },
  {
    // one door to the database (docs/data-access.md "One door"): SQL is written and run only in @risk/db's stores;
    // services and the other packages call the stores' typed functions (Prisma's typed CRUD may stay where it is
    // used). Test code (suites, fuzz, benches, faults, soak, @risk/testing) is the named exception.
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.tsx', 'packages/*/scripts/**/*.ts', 'services/*/src/**/*.ts'],
    ignores: ['packages/db/**', 'packages/testing/**', '**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^\\$(queryRaw|executeRaw)(Unsafe)?$/]',
          message: 'Raw SQL lives in @risk/db stores (docs/data-access.md "One door"): call a store function.',
        },
        {
          selector: "MemberExpression[object.name='Prisma'][property.name=/^(sql|raw|join)$/]",
          message: 'SQL fragments live in @risk/db stores (docs/data-access.md "One door"): call a store function.',
        },
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='query']",
          message: 'pg queries run in @risk/db stores (docs/data-access.md "One door"): call a store function.',
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', '**/test/**/*.ts', '**/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: nodeGlobals },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // type-aware rules on production code (CONTRIBUTING.md "How CI runs"): a promise nobody awaits loses its error,
    // and one handed to a callback whose result is ignored (a timer, an event handler) runs unsupervised. Types
    // come from one program for every node package (tsconfig.typecheck.json) and the console's own: a program per
    // package (projectService) re-read the shared packages for each and exhausted the heap.
    files: ['packages/*/src/**/*.ts', 'packages/*/src/**/*.tsx', 'services/*/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/src/generated/**'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.typecheck.json', './packages/console/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
