import { MAX_REQUEST_TIMEOUT_MS, methods } from '../../shared/protocol';
import { parseTimeouts, timeoutFor } from '../../mcp-server/src/toolTimeouts';

describe('per-tool timeouts', () => {
  it('keeps every default when nothing is set', () => {
    const { timeouts, problems } = parseTimeouts(undefined, []);
    expect(problems).toEqual([]);
    expect(timeoutFor(timeouts, 'present-review')).toBe(methods['present-review'].timeoutMs);
    expect(timeoutFor(timeouts, 'get-selection')).toBe(methods['get-selection'].timeoutMs);
  });

  it('a bare number still means every tool', () => {
    const { timeouts, problems } = parseTimeouts('45000', []);
    expect(problems).toEqual([]);
    expect(timeoutFor(timeouts, 'present-review')).toBe(45_000);
    expect(timeoutFor(timeouts, 'get-diagnostics')).toBe(45_000);
  });

  it('tool=ms sets one tool; the others keep the bare number or their default', () => {
    const { timeouts, problems } = parseTimeouts(' present-review=120000 , get-diagnostics=5000 ', []);
    expect(problems).toEqual([]);
    expect(timeoutFor(timeouts, 'present-review')).toBe(120_000);
    expect(timeoutFor(timeouts, 'get-diagnostics')).toBe(5_000);
    expect(timeoutFor(timeouts, 'get-review')).toBe(methods['get-review'].timeoutMs);
    const mixed = parseTimeouts('20000,present-review=120000', []).timeouts;
    expect(timeoutFor(mixed, 'get-review')).toBe(20_000);
    expect(timeoutFor(mixed, 'present-review')).toBe(120_000);
  });

  it('reads --timeout VALUE and --timeout=VALUE after the environment, so arguments win', () => {
    const { timeouts, problems } = parseTimeouts('present-review=60000', [
      '--workspace',
      '/w',
      '--timeout',
      'present-review=90000',
      '--timeout=get-selection=2000,7000',
    ]);
    expect(problems).toEqual([]);
    expect(timeoutFor(timeouts, 'present-review')).toBe(90_000);
    expect(timeoutFor(timeouts, 'get-selection')).toBe(2_000);
    expect(timeoutFor(timeouts, 'open-location')).toBe(7_000);
  });

  it.each([
    ['abc', /"abc" in REDLINE_TIMEOUT_MS is ignored: "abc" is not a whole number/],
    ['present-review=soon', /"present-review=soon" in REDLINE_TIMEOUT_MS is ignored: "soon" is not a whole number/],
    ['present-review=', /"present-review=" in REDLINE_TIMEOUT_MS is ignored: "" is not a whole number/],
    ['0', /"0" in REDLINE_TIMEOUT_MS is ignored: "0" is not a whole number of milliseconds above 0/],
    ['-5', /"-5" .* not a whole number/],
    ['1.5', /"1.5" .* not a whole number/],
    [
      'present-reviews=1000',
      /"present-reviews" is unknown\. Names with a timeout \(the tools, and what resources and prompts read\): present-review, /,
    ],
    ['=1000', /"" is unknown/],
    [
      'await-review-feedback=1000',
      /is ignored: await-review-feedback has no timeout of its own \(it waits for as long as its "timeoutSeconds"/,
    ],
  ])('skips %j with a message naming it, and keeps the rest', (value, message) => {
    const { timeouts, problems } = parseTimeouts(`${value},get-review=3000`, []);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(message);
    expect(timeoutFor(timeouts, 'get-review')).toBe(3_000);
    expect(timeoutFor(timeouts, 'present-review')).toBe(methods['present-review'].timeoutMs);
  });

  it('caps a timeout past the longest at the longest, and says so', () => {
    const { timeouts, problems } = parseTimeouts('present-review=99999999999999999999', []);
    expect(timeoutFor(timeouts, 'present-review')).toBe(MAX_REQUEST_TIMEOUT_MS);
    expect(problems[0]).toMatch(/is more than the longest timeout, 600000 ms \(10 minutes\); that is used instead/);
  });

  it('says when --timeout has no value, and ignores empty entries', () => {
    expect(parseTimeouts(undefined, ['--timeout']).problems).toEqual([
      expect.stringMatching(/--timeout needs a value/),
    ]);
    expect(parseTimeouts(undefined, ['--timeout', '--workspace', '/w']).problems).toEqual([
      expect.stringMatching(/--timeout needs a value/),
    ]);
    expect(parseTimeouts(',,', ['--timeout=']).problems).toEqual([]);
  });

  it('quotes a pasted megabyte back short', () => {
    const { problems } = parseTimeouts(`present-review=${'9x'.repeat(500_000)}`, []);
    expect(problems[0].length).toBeLessThan(300);
  });
});
