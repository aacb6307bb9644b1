/**
 * Unit and integration tests; TypeScript is compiled by swc (type-checking is `npm run typecheck`).
 * Three groups: `unit` (npm run test:unit); `slow` (npm run test:slow: stress, fuzz, property and
 * growth runs, 10 MiB stored reviews, and the clients that need the Python SDK); `assistants` (the
 * real assistant CLIs). `npx jest` runs all three, as `npm test` does. test:unit and test:slow run
 * a worker per core: jest's default leaves one idle, and most of these tests wait on processes.
 */
const SLOW = [
  'test/hostile/data.test.ts',
  'test/hostile/ipcFuzz.test.ts',
  'test/hostile/reviewBudget.test.ts',
  'test/integration/bridgeLoad.test.ts',
  'test/integration/conformance.test.ts',
  'test/integration/folderLockRace.test.ts',
  'test/integration/pythonClient.test.ts',
  'test/integration/storedFindings.test.ts',
  'test/unit/renderBudget.property.test.ts',
  'test/unit/renderLinearTime.test.ts',
  'test/unit/reviewLinearTime.test.ts',
];

const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  transform: { '^.+\\.[jt]s$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  // The config writers import these two as ES modules (what the extension's bundle uses), and
  // publishing imports Octokit, an ES module, with its own ES-module dependencies.
  transformIgnorePatterns: [
    '/node_modules/(?!(@rainbowatcher/toml-edit-js|jsonc-parser|@octokit|universal-user-agent|before-after-hook|json-with-bigint|content-type)/)',
  ],
};

module.exports = {
  testTimeout: 30000,
  globalSetup: '<rootDir>/test/support/runtimeDirSetup.cjs',
  globalTeardown: '<rootDir>/test/support/runtimeDirTeardown.cjs',
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/test/{unit,integration,hostile}/**/*.test.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...SLOW.map((file) => `<rootDir>/${file}`)],
    },
    { ...common, displayName: 'slow', testMatch: SLOW.map((file) => `<rootDir>/${file}`) },
    { ...common, displayName: 'assistants', testMatch: ['<rootDir>/test/assistants/**/*.test.ts'] },
  ],
};
