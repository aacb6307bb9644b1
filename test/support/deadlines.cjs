// How long a test waits before it calls something hung: one policy for every suite (jest's tests,
// until(), a raw peer's replies, the MCP servers tests start, and the end-to-end harness's waits).
// A deadline in a test is only a hang detector. On a shared 2-core machine with several other
// suites running, work that takes a second alone takes ten or more, so the deadlines are generous;
// a test that proves how fast something is compares figures measured in the same run instead
// (test/unit/growth.ts, test/support/threadHolds.ts), never a duration against a constant.

/** One test, or one hook, before jest (or mocha, end to end) calls it hung. */
const TEST_DEADLINE_MS = 10 * 60_000;

/**
 * One wait for a condition (until(), a reply, a locator), before it calls it hung: a third of a
 * test's, so that a test hung on a wait fails with the wait's message, naming what never came.
 */
const WAIT_DEADLINE_MS = 3 * 60_000;

/** A whole end-to-end run (test/e2e/run.mjs): its suites, with the VS Code windows they start. */
const RUN_DEADLINE_MS = 60 * 60_000;

module.exports = { TEST_DEADLINE_MS, WAIT_DEADLINE_MS, RUN_DEADLINE_MS };
