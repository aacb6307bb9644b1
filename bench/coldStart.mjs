// MCP server cold start: from spawning `node <server>` to its reply to tools/list, against a bare
// `node -e ''` and the same server as one bundle without the handshake responder
// (bench/bundledServer.cjs), run side by side and alternating so that a noisy machine slows all
// of them alike. After tools/list each server is also sent a ping, as a client's first call
// would come, and timed to its reply: that one Redline's full server answers, once it is loaded.
// Prints medians and ratios; `--json` prints them for bench/run.mjs.
//
//   node bench/coldStart.mjs [--runs 15] [--json] [--compile-cache warm|cold] [--also label=path/to/server.js ...]
//
// Node's compile cache (which dist/mcp-server.js turns on for the full server from Node 22.1 on)
// lives in Redline's private directory, here <TMPDIR>/redline-<uid>/compile-cache (the bench sets
// no XDG_RUNTIME_DIR). Each server here gets a TMPDIR of this bench's own:
// `warm` (the default) keeps one for the whole session, filled by the first, uncounted, start;
// `cold` gives every start an empty one, as after a reboot or an update.
// `--also` adds more servers to the same rotation (e.g. an earlier build to compare).

import { spawn } from 'node:child_process';
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
const compileCache = option('--compile-cache') ?? 'warm';
if (!['warm', 'cold'].includes(compileCache)) throw new Error(`--compile-cache is warm or cold, not ${compileCache}`);

const subjects = [
  { key: 'bare', label: "bare `node -e ''`", argv: ['-e', ''], bare: true },
  { key: 'bundled', label: 'the same server bundled', argv: [fileURLToPath(new URL('bundledServer.cjs', import.meta.url))] },
  { key: 'redline', label: '`node dist/mcp-server.js`', argv: [fileURLToPath(new URL('../dist/mcp-server.js', import.meta.url))] },
];
args.forEach((arg, index) => {
  if (arg !== '--also') return;
  const [label, file] = args[index + 1].split('=');
  subjects.push({ key: label, label, argv: [file] });
});

const line = (message) => JSON.stringify(message) + '\n';
const handshake = [
  { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cold-start', version: '1' } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
]
  .map(line)
  .join('');
const ping = line({ jsonrpc: '2.0', id: 3, method: 'ping' });

const benchTmp = mkdtempSync(join(tmpdir(), 'redline-cold-start-'));
const sessionTmp = mkdtempSync(join(benchTmp, 'session-'));

/**
 * One start: spawn → exit for bare node; for a server, spawn → the tools/list reply (`toolsList`)
 * and spawn → the reply to the ping sent once tools/list arrived (`firstCall`), in ms.
 */
async function measure(subject) {
  // No REDLINE_IPC_* variables: the server must answer without a VS Code window.
  const tmp = compileCache === 'cold' ? mkdtempSync(join(benchTmp, 'start-')) : sessionTmp;
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: tmp };
  try {
    const start = performance.now();
    const child = spawn(process.execPath, subject.argv, { cwd: root, env, stdio: ['pipe', 'pipe', 'ignore'] });
    if (subject.bare) {
      child.stdin.end();
      await once(child, 'exit');
      return { toolsList: performance.now() - start };
    }
    child.stdout.setEncoding('utf8');
    child.stdin.write(handshake);
    const times = {};
    let buffered = '';
    const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
    for await (const chunk of child.stdout) {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const { id } of lines.filter((text) => text.trim() !== '').map((text) => JSON.parse(text))) {
        if (id === 2) {
          times.toolsList = performance.now() - start;
          child.stdin.write(ping);
        }
        if (id === 3) times.firstCall = performance.now() - start;
      }
      if (times.firstCall !== undefined) break;
    }
    // Wait for the exit before the next start, so that no two processes compete for the CPU, and
    // so that the compile cache has been written.
    const exited = child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve();
    child.stdin.end();
    await exited;
    clearTimeout(timeout);
    if (times.firstCall === undefined) throw new Error(`${subject.label} exited without answering tools/list and the ping`);
    return times;
  } finally {
    if (tmp !== sessionTmp) rmSync(tmp, { recursive: true, force: true });
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const samples = new Map(subjects.map((subject) => [subject, []]));
try {
  for (const subject of subjects) await measure(subject); // warm the file cache (and the compile cache); not counted
  for (let run = 0; run < runs; run++) {
    // Rotate the order each round, so that no subject always runs right after the same one.
    for (let i = 0; i < subjects.length; i++) {
      const subject = subjects[(run + i) % subjects.length];
      samples.get(subject).push(await measure(subject));
    }
    if (!json) process.stderr.write(`\rrun ${run + 1}/${runs}`);
  }
} finally {
  rmSync(benchTmp, { recursive: true, force: true });
}
if (!json) process.stderr.write('\n');

/** Per subject: the median ms to tools/list and, for servers, to the first call's reply. */
const medians = Object.fromEntries(
  subjects.map((subject) => {
    const times = samples.get(subject);
    const toolsListMs = median(times.map((t) => t.toolsList));
    return [subject.key, subject.bare ? { toolsListMs } : { toolsListMs, firstCallMs: median(times.map((t) => t.firstCall)) }];
  }),
);
if (json) {
  console.log(JSON.stringify({ ...medians, runs, compileCache, node: process.version }));
} else {
  const bare = medians.bare.toolsListMs;
  const cell = (value) => `${value.toFixed(1).padStart(7)} ms  ${(value / bare).toFixed(2)}×`;
  console.log(`Node ${process.version}, ${runs} alternating runs each, compile cache ${compileCache}, medians:`);
  console.log(`  ${''.padEnd(28)} ${'→ tools/list'.padEnd(18)} → first call (ping)`);
  for (const subject of subjects) {
    const { toolsListMs, firstCallMs } = medians[subject.key];
    console.log(`  ${subject.label.padEnd(28)} ${cell(toolsListMs)}${firstCallMs === undefined ? '' : `   ${cell(firstCallMs)}`}`);
  }
}
