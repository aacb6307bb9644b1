// The prompts' arguments as they arrive from the client: checked, since the prompt's text asks the
// assistant to run a git command with them, and a value is typed by a user or picked by a client.

import { z } from 'zod';

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * A git revision as one token: a ref, a commit, or either with ~N, ^N or @{…}. No spaces, quotes or
 * shell characters, no leading dash (an option), no "..", which the prompt's command does not take.
 */
export const GIT_REVISION = /^(?!-)(?!.*\.\.)[A-Za-z0-9._/@{}^~+-]{1,200}$/;

export const gitRevision = z
  .string()
  .regex(GIT_REVISION, 'base must be one git revision such as HEAD, main, origin/main, v1.2, HEAD~3 or a commit hash');

/** Paths separated by spaces or commas, as a slash command passes them. */
export function splitPaths(value: string | undefined): string[] {
  return (value ?? '').split(/[\s,]+/).filter(Boolean);
}

export const pathList = z
  .string()
  .max(8192)
  .refine((value) => !CONTROL.test(value), 'paths must not contain control characters')
  .refine((value) => splitPaths(value).every((path) => !path.startsWith('-')), 'a path must not start with "-"');

export const filePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !CONTROL.test(value), 'file must not contain control characters');

/** A path for a POSIX shell command line: single-quoted, with any single quote closed and escaped. */
export function shellQuote(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

/** A code fence longer than any run of backticks in `text`, so the text cannot close it. */
export function fenceFor(text: string): string {
  // A loop, not Math.max(...runs): a selection may hold more runs than one call's arguments can.
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}
