// Which blocks of a review can be findings, found while the renderer walks markdown-it's block
// tokens: outermost list items and paragraphs outside lists, each with the references recorded
// inside it and the ```suggestion blocks that belong to it. Which of them are findings is
// findingsOf's to say (findingExtraction.ts).

import type MarkdownIt from 'markdown-it';
import type { ReferenceMeta } from './referenceAnswers';
import type { FindingCandidate } from './findingExtraction';
import { isSuggestionFence } from './suggestions';

type Token = MarkdownIt.Token;

/**
 * Outermost list items, and paragraphs outside lists: the blocks that can be findings. A
 * ```suggestion block belongs to the list item it is in, or to the paragraph right before it.
 */
export class CandidateBlocks {
  private itemDepth = 0;
  private open: { token: Token; from: number; suggestions: Token[] } | undefined;
  /** The top-level paragraph just closed, while nothing else has followed it. */
  private lastParagraph: FindingCandidate | undefined;

  constructor(
    private readonly render: { readonly references: readonly ReferenceMeta[]; readonly candidates: FindingCandidate[] },
  ) {}

  see(block: Token): void {
    if (isSuggestionFence(block)) {
      (this.open?.suggestions ?? (block.level === 0 ? this.lastParagraph?.suggestions : undefined))?.push(block);
      return;
    }
    if (block.level === 0 && block.nesting !== -1) this.lastParagraph = undefined;
    const outermostItem = block.type.startsWith('list_item_') && this.itemDepth === (block.nesting === 1 ? 0 : 1);
    if (block.type === 'list_item_open') this.itemDepth++;
    if (block.type === 'list_item_close') this.itemDepth--;
    if (!outermostItem && !(this.itemDepth === 0 && block.type.startsWith('paragraph_'))) return;
    if (block.nesting === 1) {
      this.open = block.map ? { token: block, from: this.render.references.length, suggestions: [] } : undefined;
    } else if (this.open) {
      const { token, from, suggestions } = this.open;
      this.open = undefined;
      const candidate: FindingCandidate = {
        kind: token.type === 'list_item_open' ? 'item' : 'paragraph',
        map: [token.map![0], token.map![1]],
        references: this.render.references.slice(from),
        suggestions,
        mark: (id) => token.attrSet('data-finding', id),
      };
      this.render.candidates.push(candidate);
      if (block.level === 0 && block.type === 'paragraph_close') this.lastParagraph = candidate;
    }
  }
}
