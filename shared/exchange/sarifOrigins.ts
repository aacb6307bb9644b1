// What an imported log's results were, in the shape the window keeps beside the review
// (shared/protocol/importedLog.ts), so that the export can write each tool's results back as the
// tool wrote them. What is kept is held to a byte budget, so that the review and its log stay within
// what one import may send: every string is charged as it is kept, the essentials first (ids,
// levels, places, fingerprints), then the messages, then the rules' descriptions and help. What the
// budget cannot hold is left out, and the export falls back to the review's own text for it.

import { utf8Bytes } from '../byteSize';
import type { ImportedLog, ImportedReply, ImportedResult, ImportedRule, ImportedTool, PlaceHow } from '../protocol';
import type { FindingState } from '../findingTerms';
import type { FilledMessage } from './sarifMessages';
import type { ReadResult, ReadRun } from './sarifLogReader';
import { isRecord } from './sarifBounds';
import { SarifBaseId, type SarifRule } from './sarifShape';

/** At most this much of an imported log is kept beside its review. */
export const MAX_KEPT_LOG_BYTES = 4 * 1024 * 1024;

/** What the writer knows of a result besides what the log says. */
export interface KeptResult {
  readonly read: ReadResult;
  readonly message: FilledMessage;
  readonly state: FindingState;
  /** Replies kept with the result (those of a result that is no finding: no thread holds them). */
  readonly replies: readonly ImportedReply[];
  readonly place: PlaceHow;
  readonly markdownLine: number;
}

export function keptLog({
  name,
  runs,
  results,
  budgetBytes,
}: {
  readonly name: string;
  readonly runs: readonly ReadRun[];
  readonly results: readonly KeptResult[];
  /** What the record may take of what one import sends. */
  readonly budgetBytes: number;
}): ImportedLog {
  const budget = new ByteBudget(Math.max(0, Math.min(MAX_KEPT_LOG_BYTES, budgetBytes)));
  const tools: ImportedTool[] = runs.map((read) => toolOf(read, budget));
  /** Each run's rules by the rule object found, to their index in the tool's list. */
  const ruleIndexes = runs.map(() => new Map<SarifRule, number>());
  const kept: ImportedResult[] = results.map(({ read, state, replies, place, markdownLine }) => {
    const { result, location } = read;
    const rule = read.rule.rule;
    const tool = tools[read.run];
    let ruleIndex: number | undefined;
    if (rule?.id !== undefined && budget.take(rule.id)) {
      const indexes = ruleIndexes[read.run];
      ruleIndex = indexes.get(rule) ?? tool.rules.length;
      if (!indexes.has(rule)) {
        indexes.set(rule, ruleIndex);
        tool.rules.push(ruleOf(rule, rule.id));
      }
    }
    const ruleId = result.ruleId ?? result.rule?.id ?? rule?.id;
    return {
      tool: read.run,
      ...(ruleId !== undefined && ruleId.length <= 1000 && budget.take(ruleId) ? { ruleId } : {}),
      ...(ruleIndex !== undefined ? { rule: ruleIndex } : {}),
      ...(result.level !== undefined ? { level: result.level } : {}),
      ...(result.kind !== undefined ? { kind: result.kind } : {}),
      ...(location?.uri !== undefined && location.uri.length <= 4096 && budget.take(location.uri)
        ? {
            location: {
              uri: location.uri,
              ...(location.uriBaseId !== undefined && location.uriBaseId.length <= 256
                ? { uriBaseId: location.uriBaseId }
                : {}),
              ...(location.startLine !== undefined ? { startLine: location.startLine, endLine: location.endLine } : {}),
            },
          }
        : {}),
      ...logicalOf(read, budget),
      ...fingerprintsOf('partialFingerprints', result.partialFingerprints, budget),
      ...fingerprintsOf('fingerprints', result.fingerprints, budget),
      state,
      replies: replies.filter((reply) => budget.take(reply.text)),
      place,
      markdownLine,
    };
  });
  // The messages, then the rules' words: what the budget leaves room for.
  results.forEach(({ message }, i) => {
    const text = message.text !== undefined && message.text.length <= 16_384 ? message.text : undefined;
    const markdown = message.markdown !== undefined && message.markdown.length <= 16_384 ? message.markdown : undefined;
    if ((text !== undefined || markdown !== undefined) && !message.cut && budget.take(`${text ?? ''}${markdown ?? ''}`))
      kept[i] = {
        ...kept[i],
        message: { ...(text !== undefined ? { text } : {}), ...(markdown !== undefined ? { markdown } : {}) },
      };
  });
  ruleIndexes.forEach((indexes, run) => {
    for (const [rule, index] of indexes)
      tools[run].rules[index] = { ...tools[run].rules[index], ...ruleWords(rule, budget) };
  });
  return { name, tools, results: kept };
}

function toolOf({ run }: ReadRun, budget: ByteBudget): ImportedTool {
  const driver = run.tool.driver;
  const baseIds: NonNullable<ImportedTool['baseIds']> = {};
  let bases = 0;
  for (const [id, raw] of Object.entries(run.originalUriBaseIds ?? {})) {
    const base = isRecord(raw) ? SarifBaseId.safeParse(raw) : undefined;
    if (!base?.success || bases >= 32 || id.length > 256 || (base.data.uri?.length ?? 0) > 4096) continue;
    if (!budget.take(`${id}${base.data.uri ?? ''}${base.data.uriBaseId ?? ''}`)) break;
    bases++;
    baseIds[id] = {
      ...(base.data.uri !== undefined ? { uri: base.data.uri } : {}),
      ...(base.data.uriBaseId !== undefined && base.data.uriBaseId.length <= 256
        ? { uriBaseId: base.data.uriBaseId }
        : {}),
    };
  }
  return {
    name: driver.name.slice(0, 500),
    ...short('version', driver.version, 200),
    ...short('semanticVersion', driver.semanticVersion, 200),
    ...short('informationUri', webLink(driver.informationUri), 2000),
    ...short('organization', driver.organization, 500),
    rules: [],
    ...(bases > 0 ? { baseIds } : {}),
  };
}

/** A rule's identity and help link: what every result of it carries. */
function ruleOf(rule: SarifRule, id: string): ImportedRule {
  return {
    id,
    ...short('name', rule.name, 1000),
    ...short('helpUri', webLink(rule.helpUri), 2000),
    ...(rule.defaultConfiguration?.level !== undefined ? { level: rule.defaultConfiguration.level } : {}),
    ...(rule.properties?.tags !== undefined
      ? { tags: rule.properties.tags.filter((tag) => tag.length <= 200).slice(0, 20) }
      : {}),
  };
}

/** A rule's descriptions and help, as far as the budget goes. */
function ruleWords(rule: SarifRule, budget: ByteBudget): Partial<ImportedRule> {
  const words: { -readonly [K in keyof ImportedRule]?: ImportedRule[K] } = {};
  const shortText = rule.shortDescription?.text;
  if (shortText !== undefined && shortText.length <= 2000 && budget.take(shortText)) words.shortDescription = shortText;
  const full = rule.fullDescription?.text;
  if (full !== undefined && full.length <= 8000 && budget.take(full)) words.fullDescription = full;
  const help = rule.help;
  if (
    help !== undefined &&
    (help.text?.length ?? 0) <= 16_384 &&
    (help.markdown?.length ?? 0) <= 16_384 &&
    (help.text !== undefined || help.markdown !== undefined) &&
    budget.take(`${help.text ?? ''}${help.markdown ?? ''}`)
  )
    words.help = {
      ...(help.text !== undefined ? { text: help.text } : {}),
      ...(help.markdown !== undefined ? { markdown: help.markdown } : {}),
    };
  return words;
}

function logicalOf({ location }: ReadResult, budget: ByteBudget): Pick<ImportedResult, 'logicalLocations'> {
  const logical = (location?.logicalLocations ?? [])
    .slice(0, 4)
    .map((entry) => ({
      ...short('name', entry.name, 1000),
      ...short('fullyQualifiedName', entry.fullyQualifiedName, 2000),
      ...short('kind', entry.kind, 100),
    }))
    .filter((entry) => Object.keys(entry).length > 0 && budget.take(JSON.stringify(entry)));
  return logical.length > 0 ? { logicalLocations: logical } : {};
}

function fingerprintsOf(
  key: 'partialFingerprints' | 'fingerprints',
  fingerprints: Record<string, string> | undefined,
  budget: ByteBudget,
): Partial<Pick<ImportedResult, 'partialFingerprints' | 'fingerprints'>> {
  if (fingerprints === undefined) return {};
  const entries = Object.entries(fingerprints).filter(([name, value]) => name.length <= 512 && value.length <= 512);
  if (entries.length === 0 || entries.length > 32 || !budget.take(entries.flat().join(''))) return {};
  return { [key]: Object.fromEntries(entries) };
}

/** An http(s) link, else nothing: a rule's help link is shown as one. */
function webLink(uri: string | undefined): string | undefined {
  return uri !== undefined && /^https?:\/\/[^\s<>()]+$/i.test(uri) ? uri : undefined;
}

function short<K extends string>(key: K, value: string | undefined, max: number): Partial<Record<K, string>> {
  return value !== undefined && value.length <= max ? ({ [key]: value } as Partial<Record<K, string>>) : {};
}

/** Bytes of text kept, charged as each piece is kept. */
class ByteBudget {
  private left: number;
  constructor(bytes: number) {
    this.left = bytes;
  }
  take(text: string): boolean {
    const cost = utf8Bytes(text) + 16;
    if (cost > this.left) return false;
    this.left -= cost;
    return true;
  }
}
