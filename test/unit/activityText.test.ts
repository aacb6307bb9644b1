// What the status bar item and the Activity view say: the bridge's state in each case, and one
// call with who made it, how it went, how long it took and the id to grep the MCP server's log for.

import type { ActivityEntry } from '../../extension/src/activity/activityLog';
import { describeBridgeState, describeCall, formatDuration, shortId } from '../../extension/src/activity/activityText';

const SOCKET = '/run/user/1000/redline/abc123.sock';

describe('the bridge status item', () => {
  it('says it is starting, with a spinning icon', () => {
    const status = describeBridgeState({ kind: 'starting' });
    expect(status.text).toBe('$(loading~spin) Redline');
    expect(status.tooltip).toMatch(/starting/);
    expect(status.isError).toBe(false);
  });

  it('says it is listening when no assistant is connected, and how to connect one', () => {
    const status = describeBridgeState({ kind: 'listening', socketPath: SOCKET, connected: 0 });
    expect(status.text).toBe('$(plug) Redline: listening');
    expect(status.tooltip).toContain(`Socket: ${SOCKET}`);
    expect(status.tooltip).toMatch(/No assistant is connected/);
    expect(status.tooltip).toMatch(/Connect an Assistant/);
    expect(status.tooltip).toMatch(/Redline Activity/);
    expect(status.accessibleLabel).toBe('Redline: listening, no assistant connected');
    expect(status.isError).toBe(false);
  });

  it.each([
    [1, '$(plug) Redline: 1 connected', /^1 assistant is connected/, 'Redline: 1 assistant connected'],
    [3, '$(plug) Redline: 3 connected', /^3 assistants are connected/, 'Redline: 3 assistants connected'],
  ])('counts %i connected assistant(s), and says what the count means', (connected, text, tooltip, label) => {
    const status = describeBridgeState({ kind: 'listening', socketPath: SOCKET, connected });
    expect(status.text).toBe(text);
    expect(status.tooltip).toMatch(tooltip);
    expect(status.tooltip).toMatch(/proved they hold its token/);
    expect(status.tooltip).toContain(`Socket: ${SOCKET}`);
    expect(status.accessibleLabel).toBe(label);
  });

  it('says the bridge failed, with the reason, as an error', () => {
    const reason = 'Another live Redline host already listens on /tmp/x.sock.';
    const status = describeBridgeState({ kind: 'failed', reason });
    expect(status.text).toBe('$(error) Redline: bridge failed');
    expect(status.tooltip).toContain(reason);
    expect(status.tooltip).toMatch(/no assistant can reach this window/);
    expect(status.tooltip).toMatch(/"Redline" output/);
    expect(status.accessibleLabel).toContain(reason);
    expect(status.isError).toBe(true);
  });
});

describe('a call in the Activity view', () => {
  const id = '3f2a9c1d-8b7e-4f00-9a1b-0123456789ab';
  const base: ActivityEntry = {
    seq: 1,
    id,
    connectionId: 2,
    method: 'present-review',
    client: 'Claude Code',
    startedAt: Date.UTC(2025, 0, 1, 12),
    status: 'running',
  };

  it('a running call: its method, its assistant, and the start of its id', () => {
    const text = describeCall(base);
    expect(text.label).toBe('present-review');
    expect(text.description).toBe('Claude Code · running · 3f2a9c1d');
    expect(text.tooltip).toContain(`Correlation id: ${id}`);
    expect(text.tooltip).toContain('Assistant: Claude Code');
    expect(text.tooltip).toContain('connection 2');
  });

  it('a call that succeeded: its duration', () => {
    const text = describeCall({ ...base, status: 'ok', durationMs: 12.4 });
    expect(text.description).toBe('Claude Code · ok · 12 ms · 3f2a9c1d');
    expect(text.tooltip.split('\n')[0]).toBe('present-review: ok in 12 ms');
    expect(text.accessibleLabel).toBe('present-review by Claude Code, ok, 12 ms');
  });

  it('a call that failed: its error message and code', () => {
    const text = describeCall({
      ...base,
      method: 'open-location',
      status: 'error',
      durationMs: 2500,
      error: { code: 4012, message: 'The user declined to open /etc/passwd' },
    });
    expect(text.description).toBe('Claude Code · failed · 2.5 s · 3f2a9c1d — The user declined to open /etc/passwd');
    expect(text.tooltip).toContain('Error: The user declined to open /etc/passwd (code 4012)');
  });

  it('a cancelled call, from an MCP server that did not name its assistant', () => {
    const text = describeCall({
      ...base,
      client: undefined,
      status: 'cancelled',
      durationMs: 0.25,
      error: { code: 4003, message: 'Cancelled by the client.' },
    });
    expect(text.description).toMatch(/^unnamed assistant · cancelled · 0\.3 ms · 3f2a9c1d/);
  });

  it('formats durations for a glance', () => {
    expect(formatDuration(0)).toBe('0 ms');
    expect(formatDuration(0.44)).toBe('0.4 ms');
    expect(formatDuration(999.4)).toBe('999 ms');
    expect(formatDuration(1000)).toBe('1 s');
    expect(formatDuration(59_940)).toBe('59.9 s');
    expect(formatDuration(185_000)).toBe('3 min 5 s');
  });

  it('shortens an id to the 8 characters a user greps for', () => {
    expect(shortId(id)).toBe('3f2a9c1d');
    expect(shortId('abc')).toBe('abc');
  });
});
