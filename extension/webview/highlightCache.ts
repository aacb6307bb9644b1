// Blocks already highlighted in this panel, by language and text, so that a page shown again (an
// earlier review, a re-render after an update, the same code in a new revision) is not highlighted
// again. Bounded by the characters it holds; the least recently used blocks go first.

/** Keys and highlighted HTML together, in characters. */
export const MAX_CACHED_CHARACTERS = 4 * 1024 * 1024;

export class HighlightCache {
  private readonly entries = new Map<string, string>();
  private size = 0;

  constructor(private readonly limit = MAX_CACHED_CHARACTERS) {}

  get(language: string, code: string): string | undefined {
    const key = keyOf(language, code);
    const html = this.entries.get(key);
    if (html !== undefined) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, html);
    }
    return html;
  }

  set(language: string, code: string, html: string): void {
    const key = keyOf(language, code);
    const cost = key.length + html.length;
    if (cost > this.limit) return;
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.size -= key.length + old.length;
    }
    this.entries.set(key, html);
    this.size += cost;
    for (const [oldest, value] of this.entries) {
      if (this.size <= this.limit) break;
      this.entries.delete(oldest);
      this.size -= oldest.length + value.length;
    }
  }

  /** Characters held, keys and HTML. */
  get characters(): number {
    return this.size;
  }
}

/** A grammar's name holds no NUL; the text may, so it goes last. */
function keyOf(language: string, code: string): string {
  return `${language}\0${code}`;
}
