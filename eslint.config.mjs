// A small rule set, each rule here because it catches a bug this codebase can have: promises left
// floating (a dispose or a write nobody waits for), loose equality, stray console output in the
// extension host, and the recommended checks of ESLint and typescript-eslint.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      '.cache/',
      '.vscode-test/',
      'test-artifacts/',
      'coverage/',
      'test/fixtures/',
      'test/e2e/fixtures/',
      // The sample review's files: data whose line numbers the review points at.
      'extension/sample/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    files: ['extension/**/*.ts', 'shared/**/*.ts', 'mcp-server/src/**/*.ts'],
    rules: {
      'no-console': 'error',
      '@typescript-eslint/max-params': ['error', { max: 3 }],
    },
  },
  {
    files: ['extension/webview/**/*.ts', 'mcp-server/view/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Sanitisers match control characters on purpose; the rule is for ones typed by accident.
    rules: { 'no-control-regex': 'off' },
  },
  {
    // The e2e suites run under mocha; the UI tests and the window's profile pass functions to the browser page.
    files: ['test/e2e/**/*.{js,mjs}', 'bench/windowProfile.mjs'],
    languageOptions: { globals: { ...globals.mocha, ...globals.browser } },
  },
  {
    // CommonJS files: the desktop suite, which VS Code loads with require, and config files.
    // globalReturn gives the file its own scope, as Node's module wrapper does, so a top-level name
    // such as `run` does not redeclare a global.
    files: ['**/*.cjs', 'test/e2e/suite/**/*.js', 'jest.config.js'],
    languageOptions: { sourceType: 'commonjs', parserOptions: { ecmaFeatures: { globalReturn: true } } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // A declaration file states an outside library's signature, which is not ours to change.
    files: ['**/*.d.ts'],
    rules: { '@typescript-eslint/max-params': 'off' },
  },
  prettier,
);
