// The panel's history controls: the picker of earlier reviews, the banner over an earlier review
// shown read-only (with "Restore as current"), and the "Compare with previous" list. Everything
// here is built with textContent: titles and findings come from the assistant.

import type {
  ComparedFindingEntry,
  ComparisonMessage,
  EarlierReviewEntry,
  HistoryMessage,
  WebviewToHostMessage,
} from '../src/panel/webviewMessages';

export interface HistoryElements {
  readonly picker: HTMLSelectElement;
  readonly compare: HTMLButtonElement;
  readonly banner: HTMLElement;
  readonly bannerText: HTMLElement;
  readonly restore: HTMLButtonElement;
  readonly back: HTMLButtonElement;
  readonly comparison: HTMLElement;
}

const CURRENT = '';

export class HistoryControls {
  private viewing: EarlierReviewEntry | undefined;
  private comparedRevision: number | undefined;
  /** What "Compare with previous" needs: a review shown, and one before it. */
  private shownRevision: number | undefined;
  private earliest: number | undefined;

  constructor(
    private readonly elements: HistoryElements,
    private readonly post: (message: WebviewToHostMessage) => void,
  ) {
    elements.picker.addEventListener('change', () => {
      const value = elements.picker.value;
      this.post(value === CURRENT ? { type: 'openEarlier' } : { type: 'openEarlier', revision: Number(value) });
    });
    elements.back.addEventListener('click', () => this.post({ type: 'openEarlier' }));
    elements.restore.addEventListener('click', () => {
      if (this.viewing) this.post({ type: 'restoreEarlier', revision: this.viewing.revision });
    });
    elements.compare.addEventListener('click', () => this.post({ type: 'compare' }));
  }

  /** The list of earlier reviews, and which one is shown. */
  update(message: HistoryMessage): void {
    const { picker, banner, bannerText } = this.elements;
    const current = new Option('Current review', CURRENT);
    const earlier = message.entries.map(
      (entry) =>
        new Option(
          `Revision ${entry.revision} · ${entry.title || 'Untitled review'} · ${when(entry.updatedAt)}`,
          String(entry.revision),
        ),
    );
    picker.replaceChildren(current, ...earlier);
    this.viewing = message.entries.find((entry) => entry.revision === message.viewing);
    picker.value = this.viewing ? String(this.viewing.revision) : CURRENT;
    picker.hidden = message.entries.length === 0;
    this.earliest =
      message.entries.length > 0 ? Math.min(...message.entries.map((entry) => entry.revision)) : undefined;
    this.updateCompare();
    banner.hidden = this.viewing === undefined;
    document.body.classList.toggle('redline-viewing-earlier', this.viewing !== undefined);
    if (this.viewing) {
      const title = this.viewing.title ? ` “${this.viewing.title}”` : '';
      bannerText.textContent = `Earlier review: revision ${this.viewing.revision}${title}, presented ${when(this.viewing.updatedAt)}. Read-only.`;
    }
  }

  /** A review (or nothing) is painted: a comparison made for another revision no longer applies. */
  shown(revision: number | undefined): void {
    this.shownRevision = revision;
    this.updateCompare();
    if (this.comparedRevision !== undefined && this.comparedRevision !== revision) this.hideComparison();
  }

  private updateCompare(): void {
    const hasPrevious =
      this.shownRevision !== undefined && this.earliest !== undefined && this.earliest < this.shownRevision;
    this.elements.compare.disabled = !hasPrevious;
    this.elements.compare.title = hasPrevious
      ? 'List which findings are new, fixed or still open since the review before this one'
      : 'There is no earlier review to compare this one with';
  }

  showComparison({ comparison }: ComparisonMessage): void {
    const box = this.elements.comparison;
    const close = button('Close', () => this.hideComparison());
    close.className = 'redline-comparison-close';
    if (comparison === null) {
      box.replaceChildren(paragraph('There is no earlier review in this window to compare with.'), close);
      this.comparedRevision = undefined;
    } else {
      const previous = comparison.previous.title ? ` “${comparison.previous.title}”` : '';
      const heading = document.createElement('h2');
      heading.textContent = `Compared with revision ${comparison.previous.revision}${previous}`;
      box.replaceChildren(
        heading,
        close,
        this.group('New', comparison.new, true),
        this.group('Fixed', comparison.fixed, false),
        this.group('Still open', comparison.stillOpen, true),
        this.group('Won’t fix', comparison.declined, true),
      );
      this.comparedRevision = comparison.revision;
    }
    box.hidden = false;
    box.scrollIntoView({ block: 'nearest' });
  }

  private hideComparison(): void {
    this.elements.comparison.hidden = true;
    this.elements.comparison.replaceChildren();
    this.comparedRevision = undefined;
  }

  /** One kind of finding; those still in the review shown open their thread when clicked. */
  private group(
    label: string,
    findings: readonly (ComparedFindingEntry & { how?: 'gone' | 'resolved' })[],
    inReview: boolean,
  ): HTMLElement {
    const section = document.createElement('section');
    section.className = 'redline-comparison-group';
    const heading = document.createElement('h3');
    heading.textContent = `${label} (${findings.length})`;
    const list = document.createElement('ul');
    for (const finding of findings) {
      const item = document.createElement('li');
      const severity = document.createElement('span');
      severity.className = 'redline-comparison-severity';
      severity.textContent = finding.severity ?? 'finding';
      // Most titles name their reference already.
      const place = finding.title.includes(finding.reference) ? '' : ` — ${finding.reference}`;
      const text = `${finding.title}${place}${finding.how ? ` (${finding.how})` : ''}`;
      const revealable = (inReview || finding.how === 'resolved') && this.viewing === undefined;
      item.append(
        severity,
        ' ',
        revealable ? button(text, () => this.post({ type: 'revealFinding', id: finding.id })) : text,
      );
      list.append(item);
    }
    section.append(heading, list);
    return section;
  }
}

function when(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}

function paragraph(text: string): HTMLElement {
  const p = document.createElement('p');
  p.textContent = text;
  return p;
}

function button(text: string, onClick: () => void): HTMLButtonElement {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  element.addEventListener('click', onClick);
  return element;
}
