// Lint: typescript-eslint's recommended rules (not the type-checked set, so a whole-tree run stays fast; tsc
// checks types per workspace) and the import boundaries between workspaces.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import { workspaceBoundariesRule } from './tools/eslint/workspace-boundaries.rule.mjs';

const APPS = readdirSync(new URL('./apps', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const TESTS = ['**/*.spec.ts', '**/test/**'];

const deepImports = {
  group: ['@gateway/*/src', '@gateway/*/src/**', '@gateway/*/dist', '@gateway/*/dist/**'],
  message: 'Import a workspace by its package name only: its index is its public surface, its src and dist are not.',
};
const appPackages = (apps) => ({
  group: apps.flatMap((app) => [`@gateway/${app}`, `@gateway/${app}/**`]),
  message: 'Apps do not import one another: talk over NATS, or move the shared piece into a package.',
});
// Packages sit below the apps (their integration tests may still start one, such as the sandbox).
const underApps = {
  group: APPS.flatMap((app) => [`@gateway/${app}`, `@gateway/${app}/**`]),
  message: 'A package never imports an app: the dependency runs the other way.',
};
const nest = {
  group: ['@nestjs/*', '@nestjs/**'],
  message: 'This package is framework-free: no Nest here (the apps wire it into their modules).',
};
const testDoubles = {
  group: ['**/testing', '**/testing/**'],
  message: 'Test doubles under src/testing are not built into dist: only specs may import them.',
};

// no-restricted-imports takes its options from the last matching block only, so each block lists every pattern that applies to its files.
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '**/.turbo/', '**/coverage/', '.data/', 'packages/db/src/generated/'] },
  js.configs.recommended,
  {
    files: ['**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', console: 'readonly' },
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs'],
    extends: [tseslint.configs.recommended],
    plugins: { workspace: { rules: { boundaries: workspaceBoundariesRule } } },
    rules: {
      'workspace/boundaries': 'error',
      ...restrict(deepImports),
      // An underscore names what is taken out on purpose: `{ secret: _secret, ...rest }`, `(_, i) =>`.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A variable a signal handler reads before the value is assigned cannot be const (the handler would hit the TDZ).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Sanitising NUL and C0 control characters out of client text is done with regexes on purpose.
      'no-control-regex': 'off',
    },
  },
  ...APPS.map((app) => ({
    files: [`apps/${app}/**/*.ts`, `apps/${app}/**/*.tsx`],
    rules: restrict(deepImports, appPackages(APPS.filter((other) => other !== app))),
  })),
  {
    // The console runs in the browser: the contracts' browser-safe surface only, no Node built-ins, and React's hook rules.
    files: ['apps/console/src/**/*.ts', 'apps/console/src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { window: 'readonly', document: 'readonly', fetch: 'readonly' } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@gateway/contracts', message: 'The browser imports @gateway/contracts/console: the package root holds Node-only code.' }],
          patterns: [
            deepImports,
            appPackages(APPS.filter((other) => other !== 'console')),
            { group: ['node:*'], message: 'The console runs in the browser: no Node built-ins.' },
          ],
        },
      ],
    },
  },
  {
    // The e2e suite tests the whole system as a black box and starts it with the CLI's stack launcher.
    files: ['apps/edge/test/e2e/**/*.ts'],
    rules: restrict(deepImports, appPackages(APPS.filter((other) => other !== 'edge' && other !== 'cli'))),
  },
  {
    files: ['apps/edge/src/**/*.ts'],
    ignores: [...TESTS, 'apps/edge/src/testing/**'],
    rules: restrict(deepImports, appPackages(APPS.filter((other) => other !== 'edge')), testDoubles),
  },
  {
    files: ['packages/*/src/**/*.ts'],
    ignores: TESTS,
    rules: restrict(deepImports, underApps),
  },
  {
    files: ['packages/providers/**/*.ts', 'packages/contracts/**/*.ts'],
    rules: restrict(deepImports, nest),
  },
  {
    files: ['packages/providers/src/**/*.ts', 'packages/contracts/src/**/*.ts'],
    ignores: TESTS,
    rules: restrict(deepImports, underApps, nest),
  },
);
