// The parts of a SARIF 2.1.0 log that the import reads, as zod schemas. A log comes from anywhere,
// so every value is checked before use; the schemas are lenient where tools differ (unknown
// properties are dropped, an odd level, kind or line reads as absent) and strict where a wrong type
// would break the import (a message that is not an object). Results, rules and artifacts are cut
// to bounded copies (sarifBounds.ts) and checked one at a time, so that one bad result costs only
// itself, and no result costs more than a bounded amount of work.

import { z } from 'zod';
import { RESULT_PROPERTY, RUN_PROPERTY } from './sarifKeys';
import { ExaminedValues, isRecord, RESULT_BOUNDS } from './sarifBounds';

/** Line numbers past this are noise, not positions (the link grammar reads at most nine digits). */
export const MAX_LINE = 999_999_999;

/** A line, or absent: 0 (Semgrep's "the whole file"), a negative or a fraction read as no line. */
const Line = z.number().int().min(1).max(MAX_LINE).optional().catch(undefined);
/** A value that reads as absent when it is not one of the values this import knows. */
const oneOf = <T extends string>(values: readonly [T, ...T[]]) => z.enum(values).optional().catch(undefined);
const optionalString = z.string().optional().catch(undefined);
/** An array left unread here: checked in O(1), its items read one at a time where they are used. */
const anArray = z.custom<unknown[]>((value) => Array.isArray(value), 'expected array');

export const SarifMessage = z.object({
  text: z.string().optional(),
  markdown: z.string().optional(),
  id: z.string().optional(),
  arguments: z.array(z.string()).optional().catch(undefined),
});
export type SarifMessage = z.infer<typeof SarifMessage>;

export const SarifArtifactLocation = z.object({
  uri: z.string().optional(),
  uriBaseId: z.string().optional(),
  index: z.number().int().min(0).optional(),
});
export type SarifArtifactLocation = z.infer<typeof SarifArtifactLocation>;

export const SarifRegion = z.object({ startLine: Line, endLine: Line });

const LogicalLocation = z.object({
  fullyQualifiedName: optionalString,
  name: optionalString,
  kind: optionalString,
});
export type SarifLogicalLocation = z.infer<typeof LogicalLocation>;

export const SarifLocation = z.object({
  physicalLocation: z
    .object({
      artifactLocation: SarifArtifactLocation.optional(),
      region: SarifRegion.optional().catch(undefined),
    })
    .optional(),
  logicalLocations: z.array(LogicalLocation).optional().catch(undefined),
});
export type SarifLocation = z.infer<typeof SarifLocation>;

export const SarifLevel = ['error', 'warning', 'note', 'none'] as const;
export type SarifLevel = (typeof SarifLevel)[number];
export const SarifKind = ['pass', 'open', 'informational', 'notApplicable', 'review', 'fail'] as const;
export type SarifKind = (typeof SarifKind)[number];

/**
 * What a result must have to be read: a message. What only adds to it (its rule by index,
 * fingerprints, suppressions, properties, a location that is not one) reads as absent when it is
 * malformed, so that one tool's odd property bag does not cost the result.
 */
export const SarifResult = z.object({
  ruleId: optionalString,
  ruleIndex: z.number().int().min(0).optional().catch(undefined),
  rule: z
    .object({
      id: z.string().optional(),
      index: z.number().int().min(0).optional(),
      toolComponent: z.object({ index: z.number().int().min(0).optional() }).optional(),
    })
    .optional()
    .catch(undefined),
  kind: oneOf(SarifKind),
  level: oneOf(SarifLevel),
  message: SarifMessage,
  locations: z.array(SarifLocation),
  partialFingerprints: z.record(z.string(), z.string()).optional(),
  fingerprints: z.record(z.string(), z.string()).optional(),
  suppressions: z
    .array(z.object({ kind: z.string().optional(), status: z.string().optional() }))
    .optional()
    .catch(undefined),
  baselineState: optionalString,
  /** Only Redline's own keys are read (sarifExport.ts's RESULT_PROPERTY), each checked where it is used. */
  properties: z.record(z.string(), z.unknown()),
});
export type SarifResult = z.infer<typeof SarifResult>;

/** The longest fingerprint (or fingerprint key) kept: longer is not a hash. */
export const MAX_FINGERPRINT_CHARS = 512;

/**
 * A bounded copy of a raw result, for SarifResult to check: its arrays cut to RESULT_BOUNDS, its
 * fingerprints' entries counted, and of its property bag only Redline's keys. undefined for a value
 * that is not an object (most junk a log can hold), without asking zod.
 */
export function trimResult(raw: unknown, examined: ExaminedValues): unknown {
  if (!isRecord(raw)) return undefined;
  const message = isRecord(raw.message)
    ? { ...raw.message, arguments: argumentsOf(raw.message.arguments, examined) }
    : raw.message;
  const properties = isRecord(raw.properties) ? pick(raw.properties, Object.values(RESULT_PROPERTY)) : {};
  return {
    ruleId: raw.ruleId,
    ruleIndex: raw.ruleIndex,
    rule: raw.rule,
    kind: raw.kind,
    level: raw.level,
    message,
    locations: examined
      .items(raw.locations, RESULT_BOUNDS.locations)
      .map((location) => trimLocation(location, examined))
      .filter((location) => SarifLocation.safeParse(location).success),
    partialFingerprints: examined.strings(raw.partialFingerprints, RESULT_BOUNDS.fingerprints, MAX_FINGERPRINT_CHARS),
    fingerprints: examined.strings(raw.fingerprints, RESULT_BOUNDS.fingerprints, MAX_FINGERPRINT_CHARS),
    suppressions: Array.isArray(raw.suppressions)
      ? examined.items(raw.suppressions, RESULT_BOUNDS.suppressions)
      : raw.suppressions,
    baselineState: raw.baselineState,
    properties,
  };
}

function trimLocation(raw: unknown, examined: ExaminedValues): unknown {
  if (!isRecord(raw)) return raw;
  return {
    physicalLocation: raw.physicalLocation,
    logicalLocations: Array.isArray(raw.logicalLocations)
      ? examined.items(raw.logicalLocations, RESULT_BOUNDS.logicalLocations)
      : undefined,
  };
}

function argumentsOf(raw: unknown, examined: ExaminedValues): unknown {
  return Array.isArray(raw) ? examined.items(raw, RESULT_BOUNDS.arguments) : undefined;
}

const MultiformatText = z.object({ text: z.string().optional(), markdown: z.string().optional() });

export const SarifRule = z.object({
  id: optionalString,
  name: optionalString,
  shortDescription: MultiformatText.optional().catch(undefined),
  fullDescription: MultiformatText.optional().catch(undefined),
  help: MultiformatText.optional().catch(undefined),
  helpUri: optionalString,
  /** Looked up by id only (sarifMessages.ts): never walked. */
  messageStrings: z.unknown().optional(),
  defaultConfiguration: z
    .object({ level: oneOf(SarifLevel) })
    .optional()
    .catch(undefined),
  properties: z
    .object({ tags: z.array(z.string()).optional().catch(undefined) })
    .optional()
    .catch(undefined),
});
export type SarifRule = z.infer<typeof SarifRule>;

/** A rule as the import checks it: its tags cut to a few, its message strings left for lookups. */
export function trimRule(raw: unknown, examined: ExaminedValues): unknown {
  if (!isRecord(raw) || !examined.take()) return undefined;
  const tags = isRecord(raw.properties) ? examined.items(raw.properties.tags, RESULT_BOUNDS.tags) : undefined;
  return { ...raw, properties: tags === undefined ? undefined : { tags } };
}

/** One of a rule's or tool's message strings, looked up by id: the whole record is never read. */
export function messageStringOf(strings: unknown, id: string): z.infer<typeof MultiformatText> | undefined {
  if (!isRecord(strings) || !Object.prototype.hasOwnProperty.call(strings, id)) return undefined;
  const found = MultiformatText.safeParse(strings[id]);
  return found.success ? found.data : undefined;
}

const ToolComponent = z.object({
  name: z.string(),
  version: optionalString,
  semanticVersion: optionalString,
  informationUri: optionalString,
  organization: optionalString,
  /** Checked one at a time, when a result names one. */
  rules: anArray.optional().catch(undefined),
  /** Looked up by id only. */
  globalMessageStrings: z.unknown().optional(),
});
export type SarifToolComponent = z.infer<typeof ToolComponent>;

/** A root a run names for its relative URIs: `SRCROOT` → `file:///home/ci/repo/`. */
export const SarifBaseId = z.object({ uri: z.string().optional(), uriBaseId: z.string().optional() });

export const SarifRun = z.object({
  tool: z.object({ driver: ToolComponent, extensions: z.array(ToolComponent).optional() }),
  /** Cut to MAX_BASE_IDS entries, then checked one at a time. */
  originalUriBaseIds: z.record(z.string(), z.unknown()).optional().catch(undefined),
  /** The folders the tool ran in: an absolute URI under one of them is relative to it. */
  invocations: z
    .array(z.object({ workingDirectory: z.object({ uri: z.string().optional() }).optional().catch(undefined) }))
    .optional()
    .catch(undefined),
  /** Checked one at a time, when a result's location names one by index. */
  artifacts: anArray.optional().catch(undefined),
  /** Checked one at a time. */
  results: anArray.optional(),
  /** Only Redline's own keys (RUN_PROPERTY). */
  properties: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
export type SarifRun = z.infer<typeof SarifRun>;

/** Bases read per run, and invocations and tool extensions read per run. */
const RUN_BOUNDS = { baseIds: 64, invocations: 8, extensions: 64 } as const;

/** A bounded copy of a raw run: its bases, invocations and extensions cut; its results and rules left for one at a time. */
export function trimRun(raw: unknown, examined: ExaminedValues): unknown {
  if (!isRecord(raw)) return raw;
  const tool = isRecord(raw.tool)
    ? {
        driver: raw.tool.driver,
        extensions: Array.isArray(raw.tool.extensions)
          ? examined.items(raw.tool.extensions, RUN_BOUNDS.extensions)
          : undefined,
      }
    : raw.tool;
  let originalUriBaseIds: Record<string, unknown> | undefined;
  if (isRecord(raw.originalUriBaseIds)) {
    originalUriBaseIds = {};
    let n = 0;
    for (const key in raw.originalUriBaseIds) {
      if (n++ >= RUN_BOUNDS.baseIds || !examined.take()) break;
      originalUriBaseIds[key] = raw.originalUriBaseIds[key];
    }
  }
  return {
    tool,
    originalUriBaseIds,
    invocations: Array.isArray(raw.invocations) ? examined.items(raw.invocations, RUN_BOUNDS.invocations) : undefined,
    artifacts: raw.artifacts,
    results: raw.results,
    properties: isRecord(raw.properties) ? pick(raw.properties, Object.values(RUN_PROPERTY)) : undefined,
  };
}

export const SarifArtifact = z.object({ location: SarifArtifactLocation.optional() });

export const SarifLog = z.object({
  version: z.string(),
  /** Checked one at a time. */
  runs: anArray,
});

/** The own entries of `record` named by `keys`: a bag of a million keys is never walked. */
function pick(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const key of keys) if (Object.prototype.hasOwnProperty.call(record, key)) picked[key] = record[key];
  return picked;
}

/** Where a value failed its schema, and why: "runs[0].tool.driver.name: expected string". */
export function describeIssue(error: z.ZodError, prefix: string): string {
  const issue = error.issues[0];
  if (issue === undefined) return `${prefix}: not valid`;
  const path = issue.path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    prefix,
  );
  return `${path}: ${issue.message}`;
}
