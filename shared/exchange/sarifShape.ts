// The parts of a SARIF 2.1.0 log that the import reads, as zod schemas. A log comes from anywhere,
// so every value is checked before use; the schemas are lenient where tools differ (unknown
// properties are dropped, an odd level or kind reads as absent) and strict where a wrong type would
// break the import (a line that is not a whole number, a message that is not a string).
// Results, rules and artifacts are checked one at a time, so that one bad result costs only itself.

import { z } from 'zod';

/** Line numbers past this are noise, not positions (the link grammar reads at most nine digits). */
export const MAX_LINE = 999_999_999;

const Line = z.number().int().min(1).max(MAX_LINE);
/** A value that reads as absent when it is not one of the values this import knows. */
const oneOf = <T extends string>(values: readonly [T, ...T[]]) => z.enum(values).optional().catch(undefined);

export const SarifMessage = z.object({
  text: z.string().optional(),
  markdown: z.string().optional(),
  id: z.string().optional(),
  arguments: z.array(z.string()).optional(),
});
export type SarifMessage = z.infer<typeof SarifMessage>;

export const SarifArtifactLocation = z.object({
  uri: z.string().optional(),
  uriBaseId: z.string().optional(),
  index: z.number().int().min(0).optional(),
});
export type SarifArtifactLocation = z.infer<typeof SarifArtifactLocation>;

export const SarifRegion = z.object({ startLine: Line.optional(), endLine: Line.optional() });

export const SarifLocation = z.object({
  physicalLocation: z
    .object({ artifactLocation: SarifArtifactLocation.optional(), region: SarifRegion.optional() })
    .optional(),
  logicalLocations: z
    .array(z.object({ fullyQualifiedName: z.string().optional(), name: z.string().optional() }))
    .optional(),
});
export type SarifLocation = z.infer<typeof SarifLocation>;

export const SarifLevel = ['error', 'warning', 'note', 'none'] as const;
export type SarifLevel = (typeof SarifLevel)[number];

/**
 * What a result must have to be read: a message, and locations that are locations. What only adds
 * to it (its rule by index, fingerprints, suppressions, properties) reads as absent when it is
 * malformed, so that one tool's odd property bag does not cost the result.
 */
export const SarifResult = z.object({
  ruleId: z.string().optional().catch(undefined),
  ruleIndex: z.number().int().min(0).optional().catch(undefined),
  rule: z
    .object({
      id: z.string().optional(),
      index: z.number().int().min(0).optional(),
      toolComponent: z.object({ index: z.number().int().min(0).optional() }).optional(),
    })
    .optional()
    .catch(undefined),
  kind: oneOf(['pass', 'open', 'informational', 'notApplicable', 'review', 'fail']),
  level: oneOf(SarifLevel),
  message: SarifMessage,
  locations: z.array(SarifLocation).optional(),
  partialFingerprints: z.record(z.string(), z.string()).optional().catch(undefined),
  suppressions: z
    .array(z.object({ kind: z.string().optional(), status: z.string().optional() }))
    .optional()
    .catch(undefined),
  baselineState: z.string().optional().catch(undefined),
  properties: z.record(z.string(), z.unknown()).optional().catch(undefined),
});
export type SarifResult = z.infer<typeof SarifResult>;

export const SarifRule = z.object({
  id: z.string().optional(),
  shortDescription: z.object({ text: z.string().optional() }).optional(),
  messageStrings: z
    .record(z.string(), z.object({ text: z.string().optional(), markdown: z.string().optional() }))
    .optional(),
  defaultConfiguration: z.object({ level: oneOf(SarifLevel) }).optional(),
});
export type SarifRule = z.infer<typeof SarifRule>;

const ToolComponent = z.object({
  name: z.string(),
  version: z.string().optional(),
  semanticVersion: z.string().optional(),
  /** Checked one at a time, when a result names one. */
  rules: z.array(z.unknown()).optional(),
  globalMessageStrings: z
    .record(z.string(), z.object({ text: z.string().optional(), markdown: z.string().optional() }))
    .optional(),
});
export type SarifToolComponent = z.infer<typeof ToolComponent>;

export const SarifRun = z.object({
  tool: z.object({ driver: ToolComponent, extensions: z.array(ToolComponent).optional() }),
  originalUriBaseIds: z
    .record(z.string(), z.object({ uri: z.string().optional(), uriBaseId: z.string().optional() }))
    .optional(),
  /** Checked one at a time, when a result's location names one by index. */
  artifacts: z.array(z.unknown()).optional(),
  /** Checked one at a time. */
  results: z.array(z.unknown()).optional(),
  properties: z.record(z.string(), z.unknown()).optional(),
});
export type SarifRun = z.infer<typeof SarifRun>;

export const SarifArtifact = z.object({ location: SarifArtifactLocation.optional() });

export const SarifLog = z.object({
  version: z.string(),
  /** Checked one at a time. */
  runs: z.array(z.unknown()),
});

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
