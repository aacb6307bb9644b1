// Draws the review: its title, its counts by severity and one row per finding, every text of the
// assistant's set as text (textContent), so none of it can become markup, a link or script. The
// buttons name what they do in a data attribute that the view reads back, never the finding's text.

import { FINDING_SEVERITIES } from '../../shared/findingTerms';
import type { ReviewView, ViewFinding } from './viewData';

/** What a button in a row does, read by the view's one click handler. */
export type RowAction = 'open' | 'resolved' | 'wont-fix' | 'reopen' | 'reply' | 'send';

const STATE_LABELS: Record<ViewFinding['state'], string> = {
  open: 'Open',
  resolved: 'Resolved',
  accepted: 'Accepted',
  'wont-fix': "Won't fix",
};

/** The name measured for each render, to its next paint, which the UI suite and the benchmark read. */
export const RENDER_MEASURE = 'redline-view-render';

export function renderReview(root: HTMLElement, view: ReviewView): void {
  const started = performance.now();
  text(root.querySelector('#title'), view.revision === 0 ? 'No review yet' : view.title || `Review ${view.revision}`);
  renderCounts(root.querySelector('#counts')!, view);
  const list = root.querySelector<HTMLOListElement>('#findings')!;
  const rows = document.createDocumentFragment();
  for (const finding of view.findings) rows.append(findingRow(finding));
  list.replaceChildren(rows);
  text(
    root.querySelector('#empty'),
    view.revision === 0
      ? 'Nothing has been presented in VS Code yet.'
      : view.findings.length === 0
        ? 'This review has no findings.'
        : '',
  );
  afterNextPaint(() =>
    performance.measure(RENDER_MEASURE, { start: started, detail: { findings: view.findings.length } }),
  );
}

/** Runs `then` once the browser has laid out and painted what was just added: a frame, then a task. */
function afterNextPaint(then: () => void): void {
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = then;
    channel.port2.postMessage(undefined);
  });
}

/** One finding's row again, after the user answered it. */
export function replaceRow(list: HTMLElement, finding: ViewFinding): void {
  const row = rowOf(list, finding.id);
  row?.replaceWith(findingRow(finding));
}

export function rowOf(list: HTMLElement, id: string): HTMLElement | undefined {
  for (const row of list.children) if ((row as HTMLElement).dataset.id === id) return row as HTMLElement;
  return undefined;
}

function renderCounts(counts: HTMLElement, view: ReviewView): void {
  const items = document.createDocumentFragment();
  for (const label of [...FINDING_SEVERITIES, 'none'] as const) {
    const count = view.counts[label];
    if (count === 0) continue;
    const item = element('li', `count sev-${label}`, `${count} ${label === 'none' ? 'other' : label}`);
    items.append(item);
  }
  counts.replaceChildren(items);
}

function findingRow(finding: ViewFinding): HTMLLIElement {
  const row = element('li', `finding state-${finding.state}`);
  row.dataset.id = finding.id;
  const head = element('div', 'head');
  const severity = finding.severity ?? 'none';
  head.append(element('span', `sev sev-${severity}`, finding.severity ?? 'finding'));
  const place = button('open', shownPlace(finding), 'place');
  place.title = `Open ${placeText(finding)} in VS Code`;
  head.append(place);
  const state = element(
    'span',
    'state',
    finding.stale ? `${STATE_LABELS[finding.state]} · changed since` : STATE_LABELS[finding.state],
  );
  head.append(state);
  row.append(head, element('p', 'title', finding.title));
  if (finding.excerpt) row.append(element('p', 'excerpt', finding.excerpt));
  const actions = element('div', 'actions');
  if (finding.state === 'open') actions.append(button('resolved', 'Resolve'), button('wont-fix', "Won't fix"));
  else actions.append(button('reopen', 'Reopen'));
  actions.append(button('reply', finding.replies > 0 ? `Reply (${finding.replies})` : 'Reply'));
  row.append(actions);
  return row;
}

/** Where the finding's code is now: its file and lines, for open-location. */
export function placeText(finding: Pick<ViewFinding, 'file' | 'line' | 'endLine'>): string {
  return `${finding.file}:${linesOf(finding)}`;
}

/** The same place as the user reads it: the file as the review named it when that is the file. */
function shownPlace(finding: Pick<ViewFinding, 'file' | 'line' | 'endLine' | 'reference'>): string {
  const written = finding.reference.replace(/(?::\d.*|#L\d.*)$/, '');
  const sameFile = written !== '' && (finding.file === written || finding.file.endsWith(`/${written}`));
  return `${sameFile ? written : finding.file}:${linesOf(finding)}`;
}

function linesOf({ line, endLine }: Pick<ViewFinding, 'line' | 'endLine'>): string {
  return endLine > line ? `${line}-${endLine}` : String(line);
}

function button(action: RowAction, label: string, className = 'action'): HTMLButtonElement {
  const made = element('button', className, label);
  made.type = 'button';
  made.dataset.action = action;
  return made;
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  content?: string,
): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  made.className = className;
  if (content !== undefined) made.textContent = content;
  return made;
}

function text(target: Element | null, content: string): void {
  if (target) target.textContent = content;
}
