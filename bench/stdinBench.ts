// Reading one large message from stdin: the project's line decoder against the SDK's ReadBuffer
// (what StdioServerTransport used), fed the same 64 KiB chunks. Prints JSON for bench/run.mjs.

import { ReadBuffer } from '@modelcontextprotocol/server';
import { LineDecoder } from '../shared/framing';

const CHUNK = 64 * 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function message(bytes: number): Buffer {
  const head =
    '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"present-review","arguments":{"content":"';
  const tail = '"}}}\n';
  return Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);
}

function time(read: (chunks: Buffer[]) => void, input: Buffer, runs: number): number {
  const chunks: Buffer[] = [];
  for (let i = 0; i < input.length; i += CHUNK) chunks.push(input.subarray(i, i + CHUNK));
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    read(chunks);
    times.push(performance.now() - started);
  }
  return median(times);
}

function viaLineDecoder(chunks: Buffer[]): void {
  let got = 0;
  const decoder = new LineDecoder({ onLine: (line) => (got = JSON.parse(line).id) }, 128 * 1024 * 1024);
  for (const chunk of chunks) decoder.push(chunk);
  if (got !== 1) throw new Error('the line decoder lost the message');
}

function viaSdkReadBuffer(chunks: Buffer[]): void {
  const buffer = new ReadBuffer({ maxBufferSize: 128 * 1024 * 1024 });
  let got: unknown;
  for (const chunk of chunks) {
    buffer.append(chunk);
    got ??= buffer.readMessage();
  }
  if (!got) throw new Error('the SDK read buffer lost the message');
}

const report = [10, 60].map((mib) => {
  const input = message(mib * 1024 * 1024);
  // The SDK's buffer is slow on 60 MiB: once is enough to see it.
  return {
    mib,
    lineDecoderMs: time(viaLineDecoder, input, mib > 10 ? 3 : 5),
    sdkMs: time(viaSdkReadBuffer, input, mib > 10 ? 1 : 5),
  };
});
process.stdout.write(JSON.stringify(report) + '\n');
