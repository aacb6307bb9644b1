// Which finding Next Finding and Previous Finding go to: the panel's order (the review's), from the
// finding the user is at, wrapping at either end. Plain TypeScript (no `vscode`): the commands in
// findingsFeature.ts move the editor and the panel.

export type Direction = 'next' | 'previous';

/** Where a step landed. `wrapped` when it went past the last (or first) finding to the other end. */
export interface FindingStep {
  readonly id: string;
  /** 1-based, in the panel's order. */
  readonly position: number;
  readonly count: number;
  readonly wrapped: boolean;
}

export class FindingCursor {
  private at: string | undefined;

  constructor(private readonly findings: () => ReadonlyArray<{ readonly id: string }>) {}

  /** The user went to a finding some other way (a click in the panel or on a thread): steps go on from there. */
  moveTo(id: string): void {
    this.at = id;
  }

  /** The next or previous finding; undefined when the review has none. From nowhere (or a finding that is gone), the first or the last. */
  step(direction: Direction): FindingStep | undefined {
    const list = this.findings();
    if (list.length === 0) return undefined;
    const index = list.findIndex((finding) => finding.id === this.at);
    let next: number;
    let wrapped = false;
    if (index < 0) next = direction === 'next' ? 0 : list.length - 1;
    else {
      next = index + (direction === 'next' ? 1 : -1);
      wrapped = next < 0 || next >= list.length;
      next = (next + list.length) % list.length;
    }
    this.at = list[next].id;
    return { id: this.at, position: next + 1, count: list.length, wrapped };
  }
}

/** What a wrap says: VS Code's own "next" commands wrap silently, but a review has an end worth knowing. */
export function wrapNotice(direction: Direction, count: number): string {
  return direction === 'next'
    ? `Redline: past the last finding, back at the first (1 of ${count}).`
    : `Redline: before the first finding, back at the last (${count} of ${count}).`;
}
