// How much of a SARIF log the import looks at. Every array and record it walks is cut to a length
// and counted against one budget per log, so that no shape of log (millions of results that are
// not results, a result with a million locations, a message with a million arguments, a property
// bag with a million keys) costs more than a bounded amount of work. What the budget leaves unread
// is counted, never examined, and the review says so.

/** Values the import examines in one log, across all its arrays and records. */
export const MAX_EXAMINED_VALUES = 200_000;

/** How many of each a result keeps: more are never looked at. */
export const RESULT_BOUNDS = {
  locations: 8,
  logicalLocations: 4,
  suppressions: 8,
  fingerprints: 32,
  arguments: 64,
  tags: 20,
} as const;

export class ExaminedValues {
  private used = 0;

  constructor(private readonly limit = MAX_EXAMINED_VALUES) {}

  /** Whether the budget is spent: nothing more is read. */
  get exhausted(): boolean {
    return this.used >= this.limit;
  }

  get count(): number {
    return this.used;
  }

  /** Counts one value looked at (a result, a rule); false once the budget is spent. */
  take(): boolean {
    if (this.exhausted) return false;
    this.used++;
    return true;
  }

  /** The first `max` items of an array, each counted; [] for anything else, or once the budget is spent. */
  items(value: unknown, max: number): unknown[] {
    if (!Array.isArray(value)) return [];
    const n = Math.max(0, Math.min(value.length, max, this.limit - this.used));
    this.used += n;
    return value.slice(0, n);
  }

  /**
   * The first `max` entries of a plain object whose values are strings, each counted; undefined
   * for anything else. Entries whose value is not a string are skipped (and counted).
   */
  strings(value: unknown, max: number, maxChars: number): Record<string, string> | undefined {
    if (!isRecord(value)) return undefined;
    const kept: Record<string, string> = {};
    let n = 0;
    for (const key in value) {
      if (n >= max || !this.take()) break;
      n++;
      const entry = value[key];
      if (typeof entry === 'string' && key.length <= maxChars && entry.length <= maxChars) kept[key] = entry;
    }
    return kept;
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string of at most `max` characters, else undefined: a longer value is not what the field means. */
export function shortString(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}
