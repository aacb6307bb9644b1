// How an imported log's writer and file are named wherever Redline shows them: a tool's name and
// version, and where an imported reply or state came from. Both are a file's words, not Redline's:
// made plain and short (shared/plainText.ts) before they are shown anywhere.

import { oneLine } from '../plainText';

/** A tool as a log names it: `CodeQL 2.19.0`. */
export function toolLabel(tool: {
  readonly name: string;
  readonly version?: string;
  readonly semanticVersion?: string;
}): string {
  const version = tool.semanticVersion ?? tool.version;
  return oneLine(version === undefined ? tool.name : `${tool.name} ${version}`, 120);
}

/** Where an imported item came from: `imported from results.sarif, written by CodeQL 2.19.0`. */
export function importOrigin(
  logName: string,
  tool?: { readonly name: string; readonly version?: string; readonly semanticVersion?: string },
): string {
  const file = oneLine(logName, 120) || 'a SARIF log';
  return tool === undefined ? `imported from ${file}` : `imported from ${file}, written by ${toolLabel(tool)}`;
}
