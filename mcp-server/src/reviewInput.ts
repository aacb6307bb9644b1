// What `present FILE` and `present -` read: at most the review limit plus one byte, whatever the
// source (/dev/zero, a pipe that never ends, a 600 MiB file), and only text a review can be.
// Everything is checked here, before a window is looked for, so bad input costs nothing there.

import * as fs from 'fs';
import { isBlankReview, MAX_REVIEW_BYTES } from '../../shared/protocol';

/** Input the command line refuses: always a usage error (exit 2), with what to do about it. */
export class ReviewInputError extends Error {}

const MIB = 1024 * 1024;

/**
 * Reads up to `limit + 1` bytes from the stream, then stops reading it (and destroys it when it
 * is a file), so memory never grows past the limit however much the source has.
 */
export async function readBounded(stream: NodeJS.ReadableStream, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    total += buffer.length;
    if (total > limit) {
      (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
      return 'too-large';
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks, total);
}

/** The review's markdown from a file or standard input ('-'), or a ReviewInputError that says why not. */
export async function readReviewInput(
  source: string,
  stdin: NodeJS.ReadableStream,
  limit = MAX_REVIEW_BYTES,
): Promise<string> {
  const name = source === '-' ? 'standard input' : source;
  let bytes: Buffer | 'too-large';
  try {
    // `end` is inclusive: limit + 1 bytes at most, enough to tell "too large" from "exactly the limit".
    bytes = await readBounded(source === '-' ? stdin : fs.createReadStream(source, { start: 0, end: limit }), limit);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : (error as Error).message;
    throw new ReviewInputError(`Cannot read ${name}: ${why}.`);
  }
  if (bytes === 'too-large') {
    throw new ReviewInputError(
      `${name} is larger than the ${limit / MIB} MiB a review may be. Split it, or present a summary that links to the details.`,
    );
  }
  return checkedText(bytes, name);
}

/**
 * Markdown is UTF-8 text: no NUL bytes, nothing undecodable, and something to show. Only
 * whitespace (or a byte order mark) would replace the review with a blank one, so it is refused
 * too: an empty pipe or a truncated file is a mistake far more often than a wish to blank it.
 */
export function checkedText(bytes: Buffer, name: string): string {
  if (bytes.length === 0) throw new ReviewInputError(`${name} is empty: there is no review to present.`);
  const nul = bytes.indexOf(0);
  if (nul !== -1)
    throw new ReviewInputError(`${name} holds a NUL byte at offset ${nul}: it looks binary, not markdown.`);
  let text: string;
  try {
    // A leading byte order mark is dropped here, so input of one alone decodes to nothing.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ReviewInputError(`${name} is not valid UTF-8 text. Convert it to UTF-8 markdown and present it again.`);
  }
  if (isBlankReview(text))
    throw new ReviewInputError(
      `${name} holds only whitespace: there is no review to present, and the one shown is left as it is.`,
    );
  return text;
}
