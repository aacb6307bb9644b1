/** Unit and integration tests; TypeScript is compiled by swc (type-checking is `npm run typecheck`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: [
    '**/test/unit/**/*.test.ts',
    '**/test/integration/**/*.test.ts',
    '**/test/hostile/**/*.test.ts',
    '**/test/assistants/**/*.test.ts',
  ],
  transform: { '^.+\\.[jt]s$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // The config writers import these two as ES modules (what the extension's bundle uses), and
  // publishing imports Octokit, an ES module, with its own ES-module dependencies.
  transformIgnorePatterns: [
    '/node_modules/(?!(@rainbowatcher/toml-edit-js|jsonc-parser|@octokit|universal-user-agent|before-after-hook|json-with-bigint|content-type)/)',
  ],
  testTimeout: 30000,
};
