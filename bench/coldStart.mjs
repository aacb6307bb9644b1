// MCP server cold start: from spawning `node <server>` to its reply to tools/list, against a bare
// `node -e ''` and a minimal server on the same SDK (bench/minimalServer.mjs), run side by side
// and alternating so that a noisy machine slows all three alike. Prints medians and ratios;
// `--json` prints { bareMs, minimalMs, redlineMs, runs } for bench/run.mjs.
//
//   node bench/coldStart.mjs [--runs 15] [--json] [--also label=path/to/server.js ...]
//
// `--also` adds more servers to the same rotation (e.g. an experimental build to compare).

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name) => {
  const index = args.indexOf(name);
  return index === -1 ? undefined : args[index + 1];
};
const runs = Number(option('--runs') ?? process.env.COLD_START_RUNS ?? 15);
const json = args.includes('--json');

const subjects = [
  { key: 'bareMs', label: "bare `node -e ''`", argv: ['-e', ''], bare: true },
  { key: 'minimalMs', label: 'minimal SDK server', argv: [fileURLToPath(new URL('minimalServer.mjs', import.meta.url))] },
  { key: 'redlineMs', label: '`node dist/mcp-server.js`', argv: [fileURLToPath(new URL('../dist/mcp-server.js', import.meta.url))] },
];
args.forEach((arg, index) => {
  if (arg !== '--also') return;
  const [label, file] = args[index + 1].split('=');
  subjects.push({ key: label, label, argv: [file] });
});

const messages =
  [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cold-start', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
  ]
    .map((message) => JSON.stringify(message))
    .join('\n') + '\n';

/** One cold start in ms: spawn → exit for bare node, spawn → the tools/list reply for a server. */
async function measure(subject) {
  // No REDLINE_IPC_* variables: the server must answer tools/list without a VS Code window.
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  const start = performance.now();
  const child = spawn(process.execPath, subject.argv, { cwd: root, env, stdio: ['pipe', 'pipe', 'ignore'] });
  if (subject.bare) {
    child.stdin.end();
    await once(child, 'exit');
    return performance.now() - start;
  }
  child.stdout.setEncoding('utf8');
  child.stdin.write(messages);
  let buffered = '';
  let elapsed;
  const timeout = setTimeout(() => child.kill('SIGKILL'), 10_000);
  for await (const chunk of child.stdout) {
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    if (lines.some((line) => line.trim() !== '' && JSON.parse(line).id === 2)) {
      elapsed = performance.now() - start;
      break;
    }
  }
  // Wait for the exit before the next run, so that no two processes compete for the CPU.
  const exited = child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve();
  child.stdin.end();
  await exited;
  clearTimeout(timeout);
  if (elapsed === undefined) throw new Error(`${subject.label} exited without answering tools/list`);
  return elapsed;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const samples = new Map(subjects.map((subject) => [subject, []]));
for (const subject of subjects) await measure(subject); // warm the file cache; not counted
for (let run = 0; run < runs; run++) {
  // Rotate the order each round, so that no subject always runs right after the same one.
  for (let i = 0; i < subjects.length; i++) {
    const subject = subjects[(run + i) % subjects.length];
    samples.get(subject).push(await measure(subject));
  }
  if (!json) process.stderr.write(`\rrun ${run + 1}/${runs}`);
}
if (!json) process.stderr.write('\n');

const medians = Object.fromEntries(subjects.map((subject) => [subject.key, median(samples.get(subject))]));
if (json) {
  console.log(JSON.stringify({ ...medians, runs, node: process.version }));
} else {
  const bare = medians.bareMs;
  console.log(`Node ${process.version}, ${runs} alternating runs each, medians:`);
  for (const subject of subjects) {
    const value = medians[subject.key];
    console.log(`  ${subject.label.padEnd(28)} ${value.toFixed(1).padStart(7)} ms  ${(value / bare).toFixed(2)}×`);
  }
}
