// What an imported SARIF log was, kept beside the review it became: each tool's name, version and
// the rules its results name (with their help links), and each result's rule id, level, kind, the
// tool's own fingerprints, its place as the log wrote it and how the import found it here. The
// export writes these back unchanged, so that a CodeQL log imported and exported is still CodeQL's
// log, with Redline's states and replies added; results that became no finding are exported too.
// Everything here came from a file: bounded, and shown only as plain text.

import { z } from 'zod';
import { FINDING_STATES } from '../findingTerms';
import { MAX_FEEDBACK_TEXT } from '../findingTerms';
import { MAX_FINDINGS } from './limits';

export const SARIF_LEVELS = ['error', 'warning', 'note', 'none'] as const;
export const SARIF_KINDS = ['pass', 'open', 'informational', 'notApplicable', 'review', 'fail'] as const;
/** Runs read from one log at most: a log of many empty runs costs work and says nothing. */
export const MAX_IMPORTED_RUNS = 100;
/** Fingerprints (or base ids, or tags) kept per result (or run, or rule). */
const MAX_ENTRIES = 32;

/**
 * How the import found a result's place in the workspace (shared/exchange/pathMapping.ts): as the
 * log wrote it, through one of the log's own roots (SRCROOT, the folder the tool ran in), through a
 * folder the user located, by the end of its path, by the prefix another result's end revealed; or
 * not at all.
 */
export const PLACE_HOWS = [
  'as-written',
  'log-root',
  'located',
  'suffix',
  'same-prefix',
  'not-found',
  'ambiguous',
  'no-file',
] as const;
export type PlaceHow = (typeof PLACE_HOWS)[number];

const text = (max: number) => z.string().max(max);
const Entries = z
  .record(text(512), text(512))
  .refine((record) => Object.keys(record).length <= MAX_ENTRIES, `at most ${MAX_ENTRIES} entries`);
const Multiformat = z.object({ text: text(16_384).optional(), markdown: text(16_384).optional() }).strict();

export const ImportedRule = z
  .object({
    id: text(1000),
    name: text(1000).optional(),
    shortDescription: text(2000).optional(),
    fullDescription: text(8000).optional(),
    helpUri: text(2000).optional(),
    help: Multiformat.optional(),
    level: z.enum(SARIF_LEVELS).optional(),
    tags: z.array(text(200)).max(20).optional(),
  })
  .strict();
export type ImportedRule = z.infer<typeof ImportedRule>;

export const ImportedTool = z
  .object({
    name: text(500),
    version: text(200).optional(),
    semanticVersion: text(200).optional(),
    informationUri: text(2000).optional(),
    organization: text(500).optional(),
    /** The rules the log's results name, in the order they were first named. */
    rules: z.array(ImportedRule).max(MAX_FINDINGS),
    /** The run's roots, as it wrote them, for the results exported where the log put them. */
    baseIds: z
      .record(text(256), z.object({ uri: text(4096).optional(), uriBaseId: text(256).optional() }).strict())
      .refine((record) => Object.keys(record).length <= MAX_ENTRIES, `at most ${MAX_ENTRIES} base ids`)
      .optional(),
  })
  .strict();
export type ImportedTool = z.infer<typeof ImportedTool>;

const Line = z.number().int().min(1);

export const ImportedReply = z
  .object({ text: z.string().min(1).max(MAX_FEEDBACK_TEXT), at: z.string().max(40) })
  .strict();
export type ImportedReply = z.infer<typeof ImportedReply>;

export const ImportedResult = z
  .object({
    /** Its tool, in ImportedLog.tools. */
    tool: z.number().int().min(0),
    ruleId: text(1000).optional(),
    /** Its rule, in that tool's rules. */
    rule: z.number().int().min(0).optional(),
    level: z.enum(SARIF_LEVELS).optional(),
    kind: z.enum(SARIF_KINDS).optional(),
    /** The message as the tool wrote it, filled; absent when the review's text is all that was kept. */
    message: Multiformat.optional(),
    /** Its place as the log wrote it. */
    location: z
      .object({
        uri: text(4096),
        uriBaseId: text(256).optional(),
        startLine: Line.optional(),
        endLine: Line.optional(),
      })
      .strict()
      .optional(),
    logicalLocations: z
      .array(
        z
          .object({
            name: text(1000).optional(),
            fullyQualifiedName: text(2000).optional(),
            kind: text(100).optional(),
          })
          .strict(),
      )
      .max(4)
      .optional(),
    partialFingerprints: Entries.optional(),
    fingerprints: Entries.optional(),
    state: z.enum(FINDING_STATES),
    replies: z.array(ImportedReply).max(200),
    place: z.enum(PLACE_HOWS),
    /** 1-based line of its item in the review's markdown. */
    markdownLine: Line,
  })
  .strict();
export type ImportedResult = z.infer<typeof ImportedResult>;

export const ImportedLog = z
  .object({
    /** The file's name, as the user would know it (`results.sarif`). */
    name: text(255),
    tools: z.array(ImportedTool).max(MAX_IMPORTED_RUNS),
    results: z.array(ImportedResult).max(MAX_FINDINGS),
  })
  .strict()
  .refine((log) => log.results.every((result) => result.tool < log.tools.length), 'a result names no tool');
export type ImportedLog = z.infer<typeof ImportedLog>;

/**
 * The log as import-review's params carry it: checked whole but for its results, which the window
 * checks one at a time between turns of its thread (a thousand of them take zod tens of
 * milliseconds), with ImportedResult, in extension/src/bridge/importReview.ts. The command line and
 * the import worker check it whole (ImportedLog) before they send it.
 */
export const ImportedLogParams = z
  .object({
    name: text(255),
    tools: z.array(ImportedTool).max(MAX_IMPORTED_RUNS),
    results: z
      .custom<unknown[]>((value) => Array.isArray(value), 'expected an array of results')
      .refine((results) => results.length <= MAX_FINDINGS, `at most ${MAX_FINDINGS} results`),
  })
  .strict();
export type ImportedLogParams = z.infer<typeof ImportedLogParams>;
