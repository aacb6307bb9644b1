// MCP server cold start: from spawning `node dist/mcp-server.js` to the answer a client waits for
// before it goes on, in the four ways real clients open, against a bare `node -e ''` spawn in the
// same run. The subjects alternate, so that a noisy machine slows all of them alike. Prints
// medians and ratios; `--json` prints them for bench/run.mjs.
//
//   node bench/coldStart.mjs [--runs 15] [--json] [--node PATH] [--compile-cache warm|cold] [--also label=path/to/server.js ...]
//
// The openings, each sent as a client sends it (the requests after `initialize` once it is answered):
//   discover   server/discover (2026-07-28: Claude Code, the SDKs' clients, the Inspector by default)
//   codex      initialize → tools/list with _meta.progressToken (Codex CLI)
//   gemini     initialize → prompts/list (Gemini CLI)
//   inspector  initialize → logging/setLevel → tools/list (the Inspector in its 2025 era)
// and, to show when the full server (the SDK, zod, the tools) has loaded:
//   fullServer the codex opening, then a ping once tools/list is answered: the first answer that
//              the entry leaves to the full server
//
// `--node` runs everything with another Node (the bare spawn too). Node's compile cache, which
// dist/mcp-server.js turns on from Node 22.1 on, lives in Redline's private directory, here
// <TMPDIR>/redline-<uid>/compile-cache (the bench sets no XDG_RUNTIME_DIR). Each start gets a TMPDIR
// of this bench's own: `warm` (the default) keeps one for the session, filled by the first,
// uncounted, start; `cold` gives every start an empty one, as after a reboot or an update.

import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const runs = Number(option('--runs') ?? process.env.COLD_START_RUNS ?? 15);
const json = args.includes('--json');
const node = option('--node') ?? process.execPath;
const compileCache = option('--compile-cache') ?? 'warm';
if (!['warm', 'cold'].includes(compileCache)) throw new Error(`--compile-cache is warm or cold, not ${compileCache}`);

const servers = [{ key: 'redline', label: '`node dist/mcp-server.js`', path: join(root, 'dist', 'mcp-server.js') }];
args.forEach((arg, index) => {
  if (arg !== '--also') return;
  const [label, path] = args[index + 1].split('=');
  servers.push({ key: label, label, path });
});

const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'cold-start', version: '1' },
};
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cold-start', version: '1' } },
};
const initialized = { jsonrpc: '2.0', method: 'notifications/initialized' };
const codexList = [
  initialized,
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: { progressToken: 0 } } },
];
/** Each opening: what goes first, what follows once an id is answered, and the id whose answer ends it. */
const OPENINGS = {
  discover: {
    first: [{ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } }],
    after: {},
    lastId: 1,
  },
  codex: { first: [initialize], after: { 1: codexList }, lastId: 2 },
  gemini: {
    first: [initialize],
    after: { 1: [initialized, { jsonrpc: '2.0', id: 2, method: 'prompts/list', params: {} }] },
    lastId: 2,
  },
  inspector: {
    first: [initialize],
    after: {
      1: [
        initialized,
        { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params: { level: 'debug' } },
        { jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} },
      ],
    },
    lastId: 3,
  },
  fullServer: {
    first: [initialize],
    after: { 1: codexList, 2: [{ jsonrpc: '2.0', id: 3, method: 'ping' }] },
    lastId: 3,
  },
};
const lines = (messages) => messages.map((message) => JSON.stringify(message) + '\n').join('');

const benchTmp = mkdtempSync(join(tmpdir(), 'redline-cold-start-'));
const sessionTmp = mkdtempSync(join(benchTmp, 'session-'));

/** One start, in ms: spawn → exit for bare node, spawn → the opening's last answer for a server. */
async function measure(server, opening) {
  // No REDLINE_IPC_* variables: the server must answer without a VS Code window.
  const tmp = compileCache === 'cold' ? mkdtempSync(join(benchTmp, 'start-')) : sessionTmp;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmp };
  try {
    const start = performance.now();
    const child = spawn(node, server ? [server.path] : ['-e', ''], {
      cwd: root,
      env,
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    if (!server) {
      child.stdin.end();
      await once(child, 'exit');
      return performance.now() - start;
    }
    const { first, after, lastId } = OPENINGS[opening];
    child.stdout.setEncoding('utf8');
    child.stdin.write(lines(first));
    const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
    let elapsed;
    let buffered = '';
    for await (const chunk of child.stdout) {
      const received = (buffered + chunk).split('\n');
      buffered = received.pop();
      for (const { id } of received.filter((text) => text.trim() !== '').map((text) => JSON.parse(text))) {
        if (after[id]) child.stdin.write(lines(after[id]));
        if (id === lastId) elapsed = performance.now() - start;
      }
      if (elapsed !== undefined) break;
    }
    // Wait for the exit before the next start, so that no two processes compete for the CPU, and
    // so that the compile cache has been written.
    const exited = child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve();
    child.stdin.end();
    await exited;
    clearTimeout(timeout);
    if (elapsed === undefined) throw new Error(`${server.label} exited before answering the ${opening} opening`);
    return elapsed;
  } finally {
    if (tmp !== sessionTmp) rmSync(tmp, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const subjects = [
  { key: 'bare' },
  ...servers.flatMap((server) =>
    Object.keys(OPENINGS).map((opening) => ({ key: `${server.key}.${opening}`, server, opening })),
  ),
];
const samples = new Map(subjects.map((subject) => [subject.key, []]));
try {
  for (const subject of subjects) await measure(subject.server, subject.opening); // warms the file and compile caches; not counted
  for (let run = 0; run < runs; run++) {
    // Rotate the order each round, so that no subject always runs right after the same one.
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(run + i) % subjects.length];
      samples.get(subject.key).push(await measure(subject.server, subject.opening));
    }
    if (!json) process.stderr.write(`\rrun ${run + 1}/${runs}`);
  }
} finally {
  rmSync(benchTmp, { recursive: true, force: true });
}
if (!json) process.stderr.write('\n');

const bareMs = median(samples.get('bare'));
const medians = Object.fromEntries(
  servers.map((server) => [
    server.key,
    Object.fromEntries(
      Object.keys(OPENINGS).map((opening) => [opening, median(samples.get(`${server.key}.${opening}`))]),
    ),
  ]),
);
const nodeVersion = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
if (json) {
  console.log(JSON.stringify({ bareMs, ...medians, runs, compileCache, node: nodeVersion }));
} else {
  const cell = (value) => `${value.toFixed(1).padStart(6)} ms ${(value / bareMs).toFixed(2)}×`;
  console.log(
    `Node ${nodeVersion}, ${runs} alternating runs each, compile cache ${compileCache}, medians; bare \`node -e ''\` ${bareMs.toFixed(1)} ms`,
  );
  console.log(
    `  ${''.padEnd(28)} ${Object.keys(OPENINGS)
      .map((opening) => opening.padEnd(18))
      .join(' ')}`,
  );
  for (const server of servers)
    console.log(`  ${server.label.padEnd(28)} ${Object.values(medians[server.key]).map(cell).join('  ')}`);
}
